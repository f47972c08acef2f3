// A checkpoint scenario run in the engine, every step's checkpoint stored as
// the runtime stores it (format 2: the row's text, the parts not stored
// before, the last output cited by its iteration row). Shared by the codec
// test (server/engine/checkpoint-codec.test.ts) and the size benchmark
// (bench/checkpoint-size.ts), so both measure and check the same thing.
import {
  buildCheckpoint,
  encodeCheckpoint,
  runLoop,
  type Checkpoint,
  type CheckpointPart,
  type CitedSources,
} from "../server/engine";
import { FakeClock, type CheckpointScenario } from "./checkpoint-scenarios";

export interface StoredStep {
  checkpoint: Checkpoint;
  /** The row's text. */
  state: string;
  /** Parts this step stored (not stored by an earlier one). */
  newParts: CheckpointPart[];
  /** CPU time of encodeCheckpoint, µs. */
  encodeUs: number;
}

export interface StoredRun {
  clock: FakeClock;
  /** Every step, unless `keepSteps` was false (then only the last). */
  steps: StoredStep[];
  parts: Map<string, string>;
  outputs: Map<string, string>;
  sources: CitedSources;
}

const cpuUs = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

/**
 * Runs `scenario` to its end, storing each step's checkpoint. `visit` sees
 * every step as it is stored. An encoder that returns a part twice, or a part
 * whose body does not hash to its name, throws: the figures would be wrong.
 */
export async function storeScenarioRun(
  scenario: CheckpointScenario,
  options: { visit?: (step: StoredStep) => void; keepSteps?: boolean } = {},
): Promise<StoredRun> {
  const clock = new FakeClock();
  const parts = new Map<string, string>();
  const outputs = new Map<string, string>();
  const stored = new Set<string>();
  const steps: StoredStep[] = [];
  await runLoop({
    ports: scenario.ports(clock),
    deps: clock,
    goal: scenario.goal,
    config: scenario.config,
    onStep: (outcome) => {
      const checkpoint = outcome.iteration?.checkpoint ?? buildCheckpoint(outcome.snapshot, clock);
      // The runtime cites the iteration row written in the same commit.
      const row = outcome.iteration ? `${checkpoint.snapshot.loopId}:${outcome.iteration.record.number}` : null;
      if (row) outputs.set(row, outcome.iteration!.record.output);
      const t = cpuUs();
      const encoded = encodeCheckpoint(checkpoint, { sha256: clock.sha256, outputRow: row, stored });
      const encodeUs = cpuUs() - t;
      for (const part of encoded.parts) {
        if (stored.has(part.hash)) throw new Error(`part ${part.hash} was returned again`);
        if (clock.sha256(part.body) !== part.hash) throw new Error(`part ${part.hash} does not hash to its name`);
        parts.set(part.hash, part.body);
      }
      for (const hash of encoded.cites) stored.add(hash);
      const step = { checkpoint, state: encoded.state, newParts: encoded.parts, encodeUs };
      if (options.keepSteps === false) steps.splice(0, steps.length, step);
      else steps.push(step);
      options.visit?.(step);
    },
  });
  const sources = { part: (h: string) => parts.get(h), output: (r: string) => outputs.get(r) };
  return { clock, steps, parts, outputs, sources };
}

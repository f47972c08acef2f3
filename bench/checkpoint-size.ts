// What a checkpoint costs to store, per iteration and over a long loop:
// `npx tsx bench/checkpoint-size.ts [iterations]` (default 1,000). Each
// scenario runs in the engine under a fake clock; every step's checkpoint is
// stored as format 1 did (the whole checkpoint as JSON) and as format 2 does
// (the row's text plus the parts not stored before), exactly as the runtime
// encodes them. Bytes are UTF-8 bytes of the stored text.
import { pathToFileURL } from "node:url";
import { citationsOf, decodeCheckpoint, type Checkpoint } from "../server/engine";
import { checkpointScenarios } from "../test/checkpoint-scenarios";
import { storeScenarioRun } from "../test/checkpoint-stored-run";

export interface CheckpointSizeFigure {
  scenario: string;
  checkpoints: number;
  before: { firstBytes: number; lastBytes: number; totalBytes: number };
  after: { firstBytes: number; lastBytes: number; rowBytes: number; partBytes: number; parts: number };
  /** CPU time turning a built checkpoint into what is stored, per step (µs): JSON.stringify, then encodeCheckpoint. */
  encodeUs: { before: number; after: number };
}

const cpuUs = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

const bytes = (text: string) => Buffer.byteLength(text, "utf8");

export async function measureCheckpointSize(iterations = 1000): Promise<CheckpointSizeFigure[]> {
  const figures: CheckpointSizeFigure[] = [];
  for (const scenario of checkpointScenarios(iterations)) {
    const before: number[] = [];
    const after: number[] = [];
    let rowBytes = 0;
    let partBytes = 0;
    let stringifyUs = 0;
    let encodeUs = 0;
    const run = await storeScenarioRun(scenario, {
      keepSteps: false,
      visit: (step) => {
        const t = cpuUs();
        const whole = JSON.stringify(step.checkpoint);
        stringifyUs += cpuUs() - t;
        before.push(bytes(whole));
        encodeUs += step.encodeUs;
        for (const part of step.newParts) partBytes += bytes(part.body) + part.hash.length;
        rowBytes += bytes(step.state);
        after.push(bytes(step.state));
      },
    });
    // The last one must decode to the very checkpoint it encoded, or the figure means nothing.
    const lastState = run.steps.at(-1)!.state;
    const decoded = decodeCheckpoint(JSON.parse(lastState), run.sources, run.clock.sha256) as Checkpoint;
    if (
      decoded.hash !== JSON.parse(lastState).hash ||
      citationsOf(JSON.parse(lastState)).parts.some((h) => !run.parts.has(h))
    )
      throw new Error(`${scenario.name}: the stored checkpoint does not decode`);
    figures.push({
      scenario: scenario.name,
      checkpoints: before.length,
      before: { firstBytes: before[0]!, lastBytes: before.at(-1)!, totalBytes: before.reduce((a, b) => a + b, 0) },
      after: { firstBytes: after[0]!, lastBytes: after.at(-1)!, rowBytes, partBytes, parts: run.parts.size },
      encodeUs: { before: stringifyUs / before.length, after: encodeUs / before.length },
    });
  }
  return figures;
}

const kb = (n: number) => (n / 1024).toFixed(1);
const mb = (n: number) => (n / 1024 / 1024).toFixed(2);

export function printCheckpointSize(figures: CheckpointSizeFigure[]) {
  console.log("");
  console.log("checkpoint size per loop (bytes stored in Checkpoint + CheckpointPart), format 1 → format 2");
  const rows = [
    [
      "scenario",
      "checkpoints",
      "KB/ckpt first→last, before",
      "after",
      "total MB before",
      "after",
      "ratio",
      "encode µs/step before → after (CPU)",
    ],
  ];
  for (const f of figures) {
    const afterTotal = f.after.rowBytes + f.after.partBytes;
    rows.push([
      f.scenario,
      String(f.checkpoints),
      `${kb(f.before.firstBytes)} → ${kb(f.before.lastBytes)}`,
      `${kb(f.after.firstBytes)} → ${kb(f.after.lastBytes)}`,
      mb(f.before.totalBytes),
      `${mb(afterTotal)} (${f.after.parts} parts, ${mb(f.after.partBytes)} MB)`,
      `${(f.before.totalBytes / afterTotal).toFixed(1)}×`,
      `${f.encodeUs.before.toFixed(0)} → ${f.encodeUs.after.toFixed(0)}`,
    ]);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const r of rows) console.log(`  ${r.map((c, i) => c.padEnd(widths[i]!)).join("  ")}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const iterations = Number(process.argv[2] ?? 1000);
  printCheckpointSize(await measureCheckpointSize(iterations));
}

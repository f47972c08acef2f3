// Reads what test/fixtures/overlap-agent.mjs left: one record per agent
// process, and every pair of processes of the same (loop, iteration) whose
// lifetimes overlapped: the "two agents of one iteration at once" of issue 32.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { loopDefinitionSchema } from "../server/loops/loop-definition";

export interface AgentRun {
  loopId: string;
  iteration: number;
  attempt: number;
  pid: number;
  start: number;
  /** The end line, or the last sign of life of a killed agent. */
  last: number;
  ended: boolean;
}

export function readAgentRuns(dir: string): AgentRun[] {
  return readdirSync(dir).map((name) => {
    const [loopId, iteration, attempt, pid] = name.split("_");
    const lines = readFileSync(join(dir, name), "utf8").trim().split("\n");
    const times = lines.map((l) => Number(l.split(" ")[1]));
    return {
      loopId: loopId!,
      iteration: Number(iteration),
      attempt: Number(attempt),
      pid: Number(pid),
      start: times[0]!,
      last: Math.max(...times),
      ended: lines.some((l) => l.startsWith("end ")),
    };
  });
}

/** Pairs of runs of the same loop and iteration that were alive at the same time, with the overlap in ms. */
export function overlappingRuns(runs: AgentRun[]) {
  const out: { a: AgentRun; b: AgentRun; overlapMs: number }[] = [];
  const byIteration = new Map<string, AgentRun[]>();
  for (const r of runs) {
    const key = `${r.loopId}:${r.iteration}`;
    byIteration.set(key, [...(byIteration.get(key) ?? []), r]);
  }
  for (const group of byIteration.values())
    for (let i = 0; i < group.length; i++)
      for (let j = i + 1; j < group.length; j++) {
        const [a, b] = [group[i]!, group[j]!];
        const overlapMs = Math.min(a.last, b.last) - Math.max(a.start, b.start);
        if (overlapMs > 0) out.push({ a, b, overlapMs });
      }
  return out;
}

/**
 * A loop whose agent is test/fixtures/overlap-agent.mjs (it leaves its record in `agentDir`, sleeps
 * `sleepMs`, prints $0.125), unsandboxed, stopping only at `iterations`.
 */
export function overlapAgentLoop(goal: string, agentDir: string, sleepMs: number, iterations: number) {
  return loopDefinitionSchema.parse({
    goal,
    agent: {
      kind: "command",
      preset: "generic",
      argv: [process.execPath, join(process.cwd(), "test/fixtures/overlap-agent.mjs")],
      env: { AGENT_DIR: agentDir, SLEEP_MS: String(sleepMs) },
      timeoutSeconds: 60,
      killGraceMs: 200,
      sandbox: "off",
    },
    loop: {
      stop: { maxIterations: iterations, noProgressIterations: 0, maxConsecutiveFailures: 0 },
      health: { checkInterval: 0 },
      completion: { allowNoEvidence: true },
    },
  });
}

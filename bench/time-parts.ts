// Times each named query alone, one after the other: a warm-up call, then 30
// timed calls, printing p50 / p95 wall time and the Node process's CPU per
// call. Shared by the loops.byId and loops.list profiles.
import { percentile } from "./runtime-bench";

const CALLS = 30;

/** A part: a call to time, or one with a step run before each call (untimed). */
export type TimedPart = (() => Promise<unknown>) | { before: () => Promise<unknown>; run: () => Promise<unknown> };

export async function timeParts(parts: Record<string, TimedPart>, nameWidth: number): Promise<void> {
  for (const [name, part] of Object.entries(parts)) {
    const { before, run } = typeof part === "function" ? { before: async () => undefined, run: part } : part;
    await before();
    await run();
    const ms: number[] = [];
    let cpuMs = 0;
    for (let i = 0; i < CALLS; i++) {
      await before();
      const cpu0 = process.cpuUsage();
      const t = performance.now();
      await run();
      ms.push(performance.now() - t);
      const cpu = process.cpuUsage(cpu0);
      cpuMs += (cpu.user + cpu.system) / 1000;
    }
    console.log(
      `${name.padEnd(nameWidth)} p50 ${percentile(ms, 50).toFixed(2).padStart(8)}  p95 ${percentile(ms, 95).toFixed(2).padStart(8)}  node cpu/call ${(cpuMs / CALLS).toFixed(2)} ms`,
    );
  }
}

// Where the slow iterations' time goes: the agent script's stamps (its start and
// end) lined up with what bench/gap-probe.preload.cjs saw in the server (each
// spawn-helper message, GC pauses, event-loop stalls), per gap. Prints each
// phase's median over all gaps against its median over the slowest 1%.
import { readFileSync } from "node:fs";
import { percentile } from "./runtime-bench";

type Row = [string, number, ...unknown[]];

export interface GapPhases {
  gap: number;
  /** Script's last stamp → the helper's exit message read by the server. */
  toExit: number;
  /** Exit → close (the pipes drained). */
  toClose: number;
  /** Close → the first git spawn asked for (output parsed, tracker, snapshot set-up). */
  toGit: number;
  /** First git asked for → last git closed (every git process of the snapshot). */
  git: number;
  gitProcesses: number;
  /** Last git closed → the next agent's spawn asked for (engine step, step commit, next run's set-up). */
  toNextSpawn: number;
  /** Spawn asked for → the helper's `spawned` read by the server. */
  spawnAck: number;
  /** Spawn asked for → the next script's first stamp. */
  toScript: number;
  /** GC pauses, event-loop stalls and SQLite statements inside the gap (ms, summed). */
  gc: number;
  stall: number;
  sql: number;
  sqlStatements: number;
}

export function gapPhases(calls: { start: number; end: number }[], probeFile: string): GapPhases[] {
  const rows = readFileSync(probeFile, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Row);
  const msgs = rows.filter((r) => ["req", "spawned", "exit", "close"].includes(r[0]));
  const gcs = rows.filter((r) => r[0] === "gc");
  const stalls = rows.filter((r) => r[0] === "stall");
  const sqls = rows.filter((r) => r[0] === "sql");
  const phases: GapPhases[] = [];
  let m = 0;
  for (let i = 0; i + 1 < calls.length; i++) {
    const end = calls[i]!.end;
    const nextStart = calls[i + 1]!.start;
    // The agent run that ended at `end`: its exit is the first agent exit after the script's last stamp.
    while (m < msgs.length && !(msgs[m]![0] === "exit" && msgs[m]![3] === "agent" && msgs[m]![1] >= end - 1)) m++;
    const within = [] as Row[];
    for (let k = m; k < msgs.length && msgs[k]![1] <= nextStart + 1; k++) within.push(msgs[k]!);
    const at = (pred: (r: Row) => boolean) => within.find(pred)?.[1] ?? NaN;
    const exit = at((r) => r[0] === "exit" && r[3] === "agent");
    const close = at((r) => r[0] === "close" && r[3] === "agent");
    const gitReqs = within.filter((r) => r[0] === "req" && String(r[3]).startsWith("git"));
    const gitCloses = within.filter((r) => r[0] === "close" && String(r[3]).startsWith("git"));
    const nextReq = at((r) => r[0] === "req" && r[3] === "agent");
    const nextId = within.find((r) => r[0] === "req" && r[3] === "agent")?.[2];
    const spawned = at((r) => r[0] === "spawned" && r[2] === nextId);
    const gitStart = gitReqs[0]?.[1] ?? NaN;
    const gitEnd = gitCloses[gitCloses.length - 1]?.[1] ?? NaN;
    const inside = (t: number, d: number) => Math.max(0, Math.min(t + d, nextStart) - Math.max(t, end));
    phases.push({
      gap: nextStart - end,
      toExit: exit - end,
      toClose: close - exit,
      toGit: gitStart - close,
      git: gitEnd - gitStart,
      gitProcesses: gitReqs.length,
      toNextSpawn: nextReq - gitEnd,
      spawnAck: spawned - nextReq,
      toScript: nextStart - nextReq,
      gc: gcs.reduce((s, r) => s + inside(r[1], r[2] as number), 0),
      stall: stalls.reduce((s, r) => s + inside(r[1], r[2] as number), 0),
      sql: sqls.reduce((s, r) => s + inside(r[1], r[2] as number), 0),
      sqlStatements: sqls.filter((r) => inside(r[1], r[2] as number) > 0 || (r[1] >= end && r[1] <= nextStart)).length,
    });
  }
  return phases;
}

const KEYS: (keyof GapPhases)[] = [
  "gap",
  "toExit",
  "toClose",
  "toGit",
  "git",
  "gitProcesses",
  "toNextSpawn",
  "spawnAck",
  "toScript",
  "gc",
  "stall",
  "sql",
  "sqlStatements",
];

export function printTail(phases: GapPhases[], probeFile: string) {
  const sorted = [...phases].sort((a, b) => a.gap - b.gap);
  const tail = sorted.slice(Math.floor(sorted.length * 0.99));
  const valid = (xs: number[]) => xs.filter(Number.isFinite);
  console.log("");
  console.log(
    `the gap, phase by phase (ms): median of all ${phases.length} gaps vs median of the slowest ${tail.length}`,
  );
  for (const k of KEYS) {
    const all = percentile(valid(phases.map((p) => p[k])), 50);
    const slow = percentile(valid(tail.map((p) => p[k])), 50);
    console.log(
      `  ${k.padEnd(14)} all p50 ${all.toFixed(2).padStart(7)}   slowest-1% p50 ${slow.toFixed(2).padStart(7)}`,
    );
  }
  console.log("  slowest gaps, each phase:");
  for (const p of tail.slice(-10))
    console.log("   " + KEYS.map((k) => `${k} ${Number.isFinite(p[k]) ? p[k].toFixed(1) : "-"}`).join("  "));
  const rows = readFileSync(probeFile, "utf8").split("\n").filter(Boolean);
  const extra = rows.map((l) => JSON.parse(l) as Row).filter((r) => r[0] === "loopdelay" || r[0] === "cpu");
  for (const r of extra) console.log(`  ${r[0]}: ${JSON.stringify(r[2])}`);
  // Which statements cost the most over the whole run.
  const bySql = new Map<string, { n: number; ms: number; max: number }>();
  for (const r of rows.map((l) => JSON.parse(l) as Row).filter((x) => x[0] === "sql")) {
    const e = bySql.get(r[3] as string) ?? { n: 0, ms: 0, max: 0 };
    e.n++;
    e.ms += r[2] as number;
    e.max = Math.max(e.max, r[2] as number);
    bySql.set(r[3] as string, e);
  }
  console.log("  SQLite statements by total time (n, total ms, max ms):");
  for (const [sql, e] of [...bySql].sort((a, b) => b[1].ms - a[1].ms).slice(0, 12))
    console.log(`   ${String(e.n).padStart(6)} ${e.ms.toFixed(0).padStart(6)} ${e.max.toFixed(1).padStart(6)}  ${sql}`);
  const gcs = rows.map((l) => JSON.parse(l) as Row).filter((r) => r[0] === "gc");
  const gcMs = gcs.map((r) => r[2] as number);
  const kinds = new Map<unknown, number[]>();
  for (const r of gcs) kinds.set(r[3], [...(kinds.get(r[3]) ?? []), r[2] as number]);
  // perf_hooks' kinds: 1 minor (scavenge), 2 major (mark-compact), 4 incremental marking, 8 weak callbacks.
  for (const [kind, ms] of kinds)
    console.log(`  GC kind ${String(kind)}: ${ms.length} pauses, total ${ms.reduce((a, b) => a + b, 0).toFixed(1)} ms`);
  console.log(
    `  GC: ${gcs.length} pauses, p50 ${percentile(gcMs, 50).toFixed(2)} ms, max ${Math.max(0, ...gcMs).toFixed(2)} ms, ` +
      `in ${phases.filter((p) => p.gc > 0).length} gaps (${tail.filter((p) => p.gc > 0).length} of the slowest)`,
  );
}

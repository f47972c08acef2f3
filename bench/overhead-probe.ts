// Where the in-process overhead's slow iterations go (issue 16: p99 < 5 ms on
// SQLite). Runs measureOverhead's loop once and, for every gap between two
// agent calls, splits it into the lean step commit (its COMMIT, that is the
// fsync, apart), GC pauses and timer callbacks that ran inside the gap, and
// the rest. `npx tsx bench/overhead-probe.ts [iterations] [runs]
// [--plain] [--pages] [--autocheckpoint=N] [--warmup=N]` (N iterations of a
// discarded loop first, as `npm run bench` measures a warm server).
// Not part of `npm run bench`: it patches the driver to watch it.
import { closeSync, openSync, readFileSync, readSync, statSync } from "node:fs";
import { PerformanceObserver } from "node:perf_hooks";
import { openDatabase } from "../server/db/client";
import { migrate } from "../server/db/migrations/migrator";
import type { SqliteLoopStore } from "../server/db/loop-store/sqlite-loop-store";
import { SqliteStepDriver } from "../server/db/step-commit-drivers";
import { createTempDatabase } from "../test/temp-database";
import { measureOverhead, percentile } from "./runtime-bench";

const flag = (name: string) => process.argv.includes(`--${name}`);
const option = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
const positional = process.argv.slice(2).filter((a) => !a.startsWith("--"));

type Span = { start: number; end: number; label: string };
const spans: Span[] = [];
const record = (label: string, start: number) => spans.push({ start, end: performance.now(), label });

// GC pauses.
// (Entries arrive late: the loop can run many iterations without returning to the event loop.)
const gcObserver = new PerformanceObserver((list) => {
  for (const e of list.getEntries()) spans.push({ start: e.startTime, end: e.startTime + e.duration, label: "gc" });
});
gcObserver.observe({ entryTypes: ["gc"] });

// Timer callbacks, labelled by the delay they were set with.
for (const name of ["setTimeout", "setInterval"] as const) {
  const original = globalThis[name] as (...a: unknown[]) => unknown;
  (globalThis as Record<string, unknown>)[name] = (fn: unknown, ms?: number, ...rest: unknown[]) =>
    original(
      typeof fn === "function"
        ? (...a: unknown[]) => {
            const t = performance.now();
            try {
              return (fn as (...a: unknown[]) => unknown)(...a);
            } finally {
              record(`${name}(${ms ?? 0})`, t);
            }
          }
        : fn,
      ms,
      ...rest,
    );
}

// The step commit's batch, and its COMMIT statement (the WAL append and fsync) apart.
const runLocked = (SqliteStepDriver.prototype as unknown as Record<string, (...a: unknown[]) => unknown>).runLocked!;
(SqliteStepDriver.prototype as unknown as Record<string, unknown>).runLocked = function (
  this: unknown,
  ...a: unknown[]
) {
  const t = performance.now();
  try {
    return runLocked.apply(this, a);
  } finally {
    record("batch", t);
  }
};

const commitTimes: number[] = [];
const walSalts: string[] = [];
const header = Buffer.alloc(24);
function walSalt(file: string) {
  const fd = openSync(`${file}-wal`, "r");
  try {
    readSync(fd, header, 0, 24, 0);
  } finally {
    closeSync(fd);
  }
  return header.subarray(16, 24).toString("hex");
}

async function once(iterations: number) {
  commitTimes.length = 0;
  walSalts.length = 0;
  const temp = await createTempDatabase("sqlite", "", "probe");
  if (temp.target.kind !== "sqlite") throw new Error("sqlite only");
  const file = temp.target.file;
  await migrate(temp.target, process.cwd());
  const db = openDatabase(temp.target, { poolSize: 20 });
  const { client } = await (db.loopStore as SqliteLoopStore).connection();
  const prepare = client.prepare.bind(client);
  client.prepare = ((sql: string) => {
    const statement = prepare(sql);
    // --plain: no watching, for the figures themselves.
    if (sql !== "COMMIT" || flag("plain")) return statement;
    const run = statement.run.bind(statement);
    statement.run = ((...a: unknown[]) => {
      const t = performance.now();
      try {
        return run(...(a as []));
      } finally {
        record("COMMIT", t);
        commitTimes.push(performance.now() - t);
        walSalts.push(walSalt(file));
      }
    }) as typeof statement.run;
    return statement;
  }) as typeof client.prepare;
  const labels = () =>
    Object.entries(spans.reduce<Record<string, number>>((m, s) => ((m[s.label] = (m[s.label] ?? 0) + 1), m), {}));
  if (option("autocheckpoint")) client.pragma(`wal_autocheckpoint = ${Number(option("autocheckpoint"))}`);

  spans.length = 0;
  const stamps: number[] = [];
  const warmup = Number(option("warmup") ?? 0);
  const result = await measureOverhead(db, iterations, () => stamps.push(performance.now()), warmup);
  stamps.splice(0, stamps.length - iterations); // the warm-up loop's calls are not measured
  // GC entries come in late, in batches: take what is pending.
  for (const e of gcObserver.takeRecords())
    spans.push({ start: e.startTime, end: e.startTime + e.duration, label: "gc" });
  const autockpt = client.pragma("wal_autocheckpoint", { simple: true });
  console.log(
    labels(),
    "WAL pages now",
    Math.round((statSync(`${file}-wal`).size - 32) / (24 + Number(client.pragma("page_size", { simple: true })))),
  );
  if (flag("pages")) {
    // Which b-trees the WAL's frames belong to (autocheckpoint 0: the WAL holds the whole run).
    const wal = readFileSync(`${file}-wal`);
    const owner = new Map<number, string>();
    for (const row of client.prepare("SELECT name, pageno FROM dbstat").all() as { name: string; pageno: number }[])
      owner.set(Number(row.pageno), row.name);
    const byName = new Map<string, number>();
    let frames = 0;
    const pageSize = wal.readUInt32BE(8);
    console.log("page size", pageSize, "dbstat rows", owner.size);
    for (let at = 32; at + 24 <= wal.length; at += 24 + pageSize) {
      const page = wal.readUInt32BE(at);
      byName.set(owner.get(page) ?? "?", (byName.get(owner.get(page) ?? "?") ?? 0) + 1);
      frames++;
    }
    console.log(`WAL frames ${frames}; per b-tree:`, [...byName].sort((a, b) => b[1] - a[1]).slice(0, 25));
  }
  await db.close();
  await temp.drop();
  const gaps = stamps.slice(1).map((t, i) => ({ start: stamps[i]!, end: t }));
  const p99 = percentile(
    gaps.map((g) => g.end - g.start),
    99,
  );
  const slow = gaps.filter((g) => g.end - g.start >= Math.min(p99, 3));
  const sum = (g: { start: number; end: number }, label: string) =>
    spans
      .filter((s) => s.label === label && s.start >= g.start && s.end <= g.end)
      .reduce((a, s) => a + s.end - s.start, 0);
  console.log(
    `autocheckpoint=${autockpt} p50 ${result.p50.toFixed(2)} p99 ${result.p99.toFixed(2)} ms; ${slow.length} gaps ≥ ${Math.min(p99, 3).toFixed(2)} ms:`,
  );
  const commitAll = spans.filter((s) => s.label === "COMMIT").map((s) => s.end - s.start);
  // A WAL restarted at commit i (new salt): commit i - 1 ran the automatic checkpoint.
  const checkpointing = commitTimes.filter((_, i) => i + 1 < walSalts.length && walSalts[i + 1] !== walSalts[i]);
  const plain = commitTimes.filter((_, i) => !(i + 1 < walSalts.length && walSalts[i + 1] !== walSalts[i]));
  console.log(
    `  commits that ran the auto-checkpoint: ${checkpointing.length}, their COMMIT median ${percentile(checkpointing, 50).toFixed(2)} ms (${checkpointing.map((x) => x.toFixed(1)).join(" ")}); the others' median ${percentile(plain, 50).toFixed(2)}, p99 ${percentile(plain, 99).toFixed(2)}`,
  );
  // Slow COMMITs by how many commits after the last auto-checkpoint they ran (0: the first after it).
  let since = -1;
  const after: string[] = [];
  commitTimes.forEach((ms, i) => {
    if (ms >= 2) after.push(`${since < 0 ? "?" : since}:${ms.toFixed(1)}`);
    since = i + 1 < walSalts.length && walSalts[i + 1] !== walSalts[i] ? 0 : since < 0 ? since : since + 1;
  });
  if (after.length) console.log(`  COMMITs ≥ 2 ms (commits since the checkpoint: ms): ${after.join(" ")}`);
  console.log(
    `  gc events ${spans.filter((s) => s.label === "gc").length}, timers ${spans.filter((s) => s.label.startsWith("set")).length}; COMMIT p50 ${percentile(commitAll, 50).toFixed(2)} p99 ${percentile(commitAll, 99).toFixed(2)}`,
  );
  for (const g of slow) {
    const inside = spans.filter(
      (s) => s.start >= g.start && s.end <= g.end && !["batch", "COMMIT", "gc"].includes(s.label),
    );
    const batch = sum(g, "batch");
    const commit = sum(g, "COMMIT");
    const gc = sum(g, "gc");
    const timers = inside.map((s) => `${s.label} ${(s.end - s.start).toFixed(2)}`).join(", ");
    console.log(
      `  gap ${(g.end - g.start).toFixed(2)}: COMMIT ${commit.toFixed(2)}, rest of batch ${(batch - commit).toFixed(2)}, gc ${gc.toFixed(2)}, other ${(g.end - g.start - batch - gc).toFixed(2)}${timers ? `; timers: ${timers}` : ""}`,
    );
  }
}

const iterations = Number(positional[0] ?? 500);
const runs = Number(positional[1] ?? 1);
for (let i = 0; i < runs; i++) await once(iterations);

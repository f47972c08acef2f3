// npm run bench: the runtime's figures on SQLite and PostgreSQL. Never part
// of `npm test`: timings on a shared machine are for reading, not asserting.
import { openDatabase } from "../server/db/client";
import { migrate } from "../server/db/migrations/migrator";
import { createTempDatabase } from "../test/temp-database";
import { getEnv } from "../server/env";
import { measureLiveRss, measureOverhead, measureThroughput, measureWorkers } from "./runtime-bench";
import { measureEventLatency } from "./event-latency";
import { closeEventWakeups } from "../server/events/event-wakeups";
import { measureSandboxCost } from "./sandbox-bench";
import { measureSnapshotCost } from "./snapshot-bench";
import { measureDashboard, measureListDuringBurst } from "./dashboard-bench";
import { measureUiIdle } from "./ui-idle";
import { createPorts } from "../server/agents/registry";
import { envSecretResolver } from "../server/agents/secret-resolver";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const env = getEnv();
const root = process.cwd();
const rows: string[][] = [["figure", "sqlite", "postgresql", "target"]];
const fmt = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : "n/a");

async function withDatabase<T>(
  kind: "sqlite" | "postgresql",
  fn: (db: ReturnType<typeof openDatabase>, url: ReturnType<typeof openDatabase>["target"]) => Promise<T>,
) {
  const temp = await createTempDatabase(kind, env.RALPH_PG_ADMIN_URL, "bench");
  await migrate(temp.target, root);
  const db = openDatabase(temp.target, { poolSize: 20 });
  try {
    return await fn(db, temp.target);
  } finally {
    await db.close();
    await temp.drop();
  }
}

const results: Record<string, Record<string, string>> = {};
const put = (figure: string, kind: string, value: string) => ((results[figure] ??= {})[kind] = value);

for (const kind of ["sqlite", "postgresql"] as const) {
  console.error(`… ${kind}: per-iteration overhead`);
  const overhead = await withDatabase(kind, (db) => measureOverhead(db, 500));
  put("overhead p50 (ms)", kind, fmt(overhead.p50));
  put("overhead p99 (ms)", kind, fmt(overhead.p99));
  for (const loops of [1, 50, 200]) {
    console.error(`… ${kind}: throughput with ${loops} loops`);
    const t = await withDatabase(kind, (db) =>
      measureThroughput(db, loops, loops === 1 ? 500 : Math.max(5, Math.round(2000 / loops))),
    );
    put(`iterations/s, ${loops} loop${loops > 1 ? "s" : ""}`, kind, fmt(t.perSecond, 0));
  }
  console.error(`… ${kind}: 2 workers`);
  const w = await withDatabase(kind, async (db, target) => {
    const second = openDatabase(target, { poolSize: 20 });
    try {
      return await measureWorkers([db, second], 200, 10);
    } finally {
      await second.close();
    }
  });
  put("iterations/s, 2 workers, 200 loops", kind, fmt(w.perSecond, 0));

  console.error(`… ${kind}: memory with 100 live loops`);
  const workspaces = mkdtempSync(join(tmpdir(), "ralph-bench-"));
  const demoPorts = (loop: { id: string; config: unknown }) =>
    createPorts(
      loop.config as Parameters<typeof createPorts>[0],
      { workspaceDir: (id) => join(workspaces, id), secrets: envSecretResolver },
      loop.id,
    );
  const rss = await withDatabase(kind, (db) => measureLiveRss(db, demoPorts, 100, 8));
  put("runtime RSS, 100 live loops (MB)", kind, `${fmt(rss.rssMb, 0)} (${rss.iterations} it.)`);

  console.error(`… ${kind}: dashboard with 10,000 loops and a loop of 20,000 iterations`);
  const dash = await withDatabase(kind, (db) => measureDashboard(db));
  put("loops.byId, 20,000 iterations, p95 (ms)", kind, fmt(dash.byId.p95));
  put("loops.byId, 20,000 iterations, payload (KB)", kind, fmt(dash.byId.kb, 0));
  put("loops.list, 10,000 loops, p95 (ms)", kind, fmt(dash.list.p95));
  put("loops.list, 10,000 loops, status filter + cost sort, p95 (ms)", kind, fmt(dash.listFiltered.p95));

  console.error(`… ${kind}: loops.list during a burst of 1,000 loop creations`);
  const burst = await withDatabase(kind, (db) => measureListDuringBurst(db));
  put("loops.list during 1,000 loop creations, p95 (ms)", kind, fmt(burst.p95));

  console.error(`… ${kind}: event → SSE subscriber latency`);
  const latency = await withDatabase(kind, async (db) => {
    try {
      return await measureEventLatency(db, { samples: 200 });
    } finally {
      await closeEventWakeups(db);
    }
  });
  put("event latency p50 (ms)", kind, fmt(latency.p50Ms));
  put("event latency p95 (ms)", kind, fmt(latency.p95Ms));
}

const targets: Record<string, string> = {
  "overhead p99 (ms)": "< 5 (sqlite)",
  "iterations/s, 200 loops": ">= 1000 (sqlite)",
  "iterations/s, 2 workers, 200 loops": ">= 500 (postgresql)",
  "event latency p95 (ms)": "< 250",
  "loops.byId, 20,000 iterations, p95 (ms)": "< 100",
  "loops.byId, 20,000 iterations, payload (KB)": "< 200",
  "loops.list, 10,000 loops, p95 (ms)": "< 100",
  "loops.list during 1,000 loop creations, p95 (ms)": "< 150",
  "loops.list, 10,000 loops, status filter + cost sort, p95 (ms)": "< 100",
};
for (const [figure, byKind] of Object.entries(results))
  rows.push([figure, byKind.sqlite ?? "", byKind.postgresql ?? "", targets[figure] ?? ""]);
const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
for (const r of rows) console.log(r.map((c, i) => c.padEnd(widths[i]!)).join("  "));

console.error("… command agent: cost of the sandbox per iteration");
const sandbox = await measureSandboxCost(40);
const ms = (m: { p50: number; p95: number }) => `p50 ${fmt(m.p50)} / p95 ${fmt(m.p95)}`;
console.log("");
console.log("command agent, one instant iteration (ms)");
console.log(`  bare spawn of the script      ${ms(sandbox.bareMs)}`);
console.log(
  `  executor, sandbox off         ${ms(sandbox.unsandboxedMs)}  → executor overhead p50 ${fmt(sandbox.unsandboxedMs.p50 - sandbox.bareMs.p50)} ms (target < 5)`,
);
console.log(
  sandbox.available
    ? `  executor, sandboxed           ${ms(sandbox.sandboxedMs)}  → sandbox cost p50 ${fmt(sandbox.sandboxedMs.p50 - sandbox.unsandboxedMs.p50)} ms`
    : "  executor, sandboxed           n/a (sandbox unavailable here)",
);

console.error("… git snapshot per iteration");
const snap = await measureSnapshotCost(30);
console.log("");
console.log(`git snapshot of one iteration, ${snap.files} files with ${snap.changed} changed (ms; target p50 < 150)`);
console.log(`  ${ms(snap)}`);

console.error("… loop page idle main-thread time (Chromium)");
const ui = await measureUiIdle(root).catch((error: unknown) => {
  console.error(`  loop page idle: ${String(error)}`);
  return null;
});
console.log("");
console.log("loop page, main-thread task time over 10 s idle (ms)");
if (!ui) console.log("  n/a: run `npm run build` first (the bench serves the built app)");
else {
  console.log(`  finished loop                 ${fmt(ui.finishedMs, 0)}  (target < 60)`);
  console.log(`  running loop                  ${fmt(ui.runningMs, 0)}  (target < 300)`);
}
process.exit(0);

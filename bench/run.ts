// npm run bench: the runtime's figures on SQLite and PostgreSQL, then the
// browser's (they need `npm run build`). Never part of `npm test`: timings on
// a shared machine are for reading, not asserting. `npm run bench -- --ui`
// runs the browser figures alone; `--only=control,idle` picks some of them
// (idle, cls, control, lighthouse). `-- --dashboard` runs the dashboard's
// (10,000 loops, 1,000,000 iterations, a loop of 20,000) on both databases alone;
// `-- --scale` adds them to the full run. The control figure on PostgreSQL runs with `--ui` or `--only=` only. The default leaves them out: seeding a
// million iterations twice took the bench past 45 minutes on a loaded 2-core machine.
// `-- --defaults` runs issue 36's figures alone (the gap with the sandbox and
// snapshots on, against ralphy-cli; the sandbox's launch cost; the snapshot on
// a real-shaped 10k repository); `-- --large` takes more snapshot samples.
// (`-- --ui --port=3120` to keep clear of other checkouts.)
import { openDatabase } from "../server/db/client";
import { migrate } from "../server/db/migrations/migrator";
import { createTempDatabase } from "../test/temp-database";
import { getEnv } from "../server/env";
import { measureOverhead, measureThroughput, measureWorkers } from "./runtime-bench";
import { measureWorkerProcesses } from "./workers-bench";
import { measureEventLatency } from "./event-latency";
import { closeEventWakeups } from "../server/events/event-wakeups";
import { measureSandboxCost } from "./sandbox-bench";
import { measureSnapshotCost } from "./snapshot-bench";
import { measureDashboard, measureListDuringBurst } from "./dashboard-bench";
import { printUiFigures, UI_FIGURES } from "./ui-figures";
import { measureBreakdown } from "./iteration-breakdown";
import { measureEndToEndGap } from "./e2e-gap";
import { printGap } from "./gap-report";
import { measureCheckpointSize, printCheckpointSize } from "./checkpoint-size";
import { measureDefaultsGap } from "./defaults-gap";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { RUNTIME_NODE_FLAGS, runtimeEnv } from "../scripts/lib/runtime-node-flags.mjs";

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
    await closeEventWakeups(db);
    await db.close();
    await temp.drop();
  }
}

/**
 * bench/memory.ts bundled into plain JavaScript, as the served app runs: under tsx, a module
 * loader thread (a second V8 isolate holding every transformed source) adds 50-70 MB of RSS
 * that the app does not have. esbuild comes with tsx; packages stay external.
 */
let memoryBundle: string | undefined;
function bundledMemoryBench() {
  if (memoryBundle) return memoryBundle;
  const out = join(root, "tmp/memory-bench.mjs");
  execFileSync(
    join(root, "node_modules/.bin/esbuild"),
    [
      join(root, "bench/memory.ts"),
      "--bundle",
      "--platform=node",
      "--format=esm",
      "--packages=external",
      "--target=node20",
      `--outfile=${out}`,
      "--log-level=warning",
    ],
    { cwd: root, stdio: ["ignore", "ignore", "inherit"] },
  );
  return (memoryBundle = out);
}

/**
 * Each memory figure in a process of its own (bench/memory.ts), so it carries no other figure's heap,
 * started with the node flags and malloc settings the app server and the worker run with.
 */
function liveRss(kind: "sqlite" | "postgresql", loops: number, seconds: number, slots = 50) {
  try {
    const out = execFileSync(
      process.execPath,
      [
        ...RUNTIME_NODE_FLAGS,
        bundledMemoryBench(),
        String(loops),
        String(seconds),
        `--${kind}`,
        "--slots",
        String(slots),
      ],
      { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], env: runtimeEnv(), timeout: 30 * 60_000 },
    );
    return JSON.parse(out.trim().split("\n").pop()!) as {
      rssMb: number;
      iterations: number;
      iterationsInWindow: number;
    };
  } catch (error) {
    console.error(`  memory with ${loops} loops: ${String(error)}`);
    return null;
  }
}

const uiOnly = process.argv.includes("--ui");
// --port=N: where the browser figures serve the app (default 3290).
const uiPort = Number(process.argv.find((a) => a.startsWith("--port="))?.slice(7) ?? 3290);
const onlyArg = process.argv.find((a) => a.startsWith("--only="))?.slice(7);
// --lighthouse-runs=N: Lighthouse runs per page and form factor (medians; default 1).
const lighthouseRuns = Number(process.argv.find((a) => a.startsWith("--lighthouse-runs="))?.slice(18) ?? 1);
const uiOnlyFigures = onlyArg ? UI_FIGURES.filter((f) => onlyArg.split(",").includes(f)) : UI_FIGURES;

const dashboardOnly = process.argv.includes("--dashboard");
// --scale: the full run also seeds the dashboard's million iterations on each database.
const atScale = process.argv.includes("--scale");

const DASHBOARD_TARGETS: Record<string, string> = {
  "loops.byId, 20,000 iterations, p95 (ms)": "< 100",
  "loops.byId, same, p50 (ms)": "",
  "loops.byId, same, first call (ms)": "",
  "loops.byId, cached, Node CPU per call (ms)": "",
  "loops.byId, gaining iterations, p95 (ms)": "< 100",
  "loops.byId, gaining iterations, p50 (ms)": "",
  "loops.byId, gaining iterations, CPU per call (ms)": "",
  "loops.byId, cache emptied, p95 (ms)": "",
  "loops.byId, cache emptied, p50 (ms)": "",
  "loops.byId, cache emptied, CPU per call (ms)": "",
  "loops.byId, 20,000 iterations, payload (KB)": "< 200",
  "loops.list, 10,000 loops / 1,000,000 it., p95 (ms)": "< 100",
  "loops.list, same, status filter + cost sort, p95 (ms)": "< 100",
  "loops.list, same, agent filter + iteration sort, p95 (ms)": "< 100",
};

async function dashboardFigures(
  kind: "sqlite" | "postgresql",
  put: (figure: string, kind: string, value: string) => void,
) {
  console.error(`… ${kind}: dashboard with 10,000 loops, 1,000,000 iterations and a loop of 20,000 iterations`);
  const dash = await withDatabase(kind, (db) => measureDashboard(db));
  put("loops.byId, 20,000 iterations, p95 (ms)", kind, fmt(dash.byId.p95));
  put("loops.byId, same, p50 (ms)", kind, fmt(dash.byId.p50));
  put("loops.byId, same, first call (ms)", kind, fmt(dash.byId.first));
  put("loops.byId, cached, Node CPU per call (ms)", kind, fmt(dash.byId.cpu));
  put("loops.byId, gaining iterations, p95 (ms)", kind, fmt(dash.byId.appendedP95));
  put("loops.byId, gaining iterations, p50 (ms)", kind, fmt(dash.byId.appendedP50));
  put("loops.byId, gaining iterations, CPU per call (ms)", kind, fmt(dash.byId.appendedCpu));
  put("loops.byId, cache emptied, p95 (ms)", kind, fmt(dash.byId.coldP95));
  put("loops.byId, cache emptied, p50 (ms)", kind, fmt(dash.byId.coldP50));
  put("loops.byId, cache emptied, CPU per call (ms)", kind, fmt(dash.byId.coldCpu));
  put("loops.byId, 20,000 iterations, payload (KB)", kind, fmt(dash.byId.kb, 0));
  put("loops.list, 10,000 loops / 1,000,000 it., p95 (ms)", kind, fmt(dash.list.p95));
  put("loops.list, same, status filter + cost sort, p95 (ms)", kind, fmt(dash.listFiltered.p95));
  put("loops.list, same, agent filter + iteration sort, p95 (ms)", kind, fmt(dash.listByAgent.p95));
}

function printTable(results: Record<string, Record<string, string>>, targets: Record<string, string>) {
  for (const [figure, byKind] of Object.entries(results))
    rows.push([figure, byKind.sqlite ?? "", byKind.postgresql ?? "", targets[figure] ?? ""]);
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const r of rows) console.log(r.map((c, i) => c.padEnd(widths[i]!)).join("  "));
}

/** `npm run bench -- --dashboard`: the dashboard figures alone, on both databases. */
async function dashboardOnlyFigures() {
  const results: Record<string, Record<string, string>> = {};
  const put = (figure: string, kind: string, value: string) => ((results[figure] ??= {})[kind] = value);
  for (const kind of ["sqlite", "postgresql"] as const) await dashboardFigures(kind, put);
  printTable(results, DASHBOARD_TARGETS);
}

async function runtimeFigures() {
  const results: Record<string, Record<string, string>> = {};
  const put = (figure: string, kind: string, value: string) => ((results[figure] ??= {})[kind] = value);

  for (const kind of ["sqlite", "postgresql"] as const) {
    console.error(`… ${kind}: per-iteration overhead`);
    // The process's first loop pays the JIT and a WAL still growing; the target is a warm server's.
    const [cold, overhead] = await withDatabase(kind, async (db) => [
      await measureOverhead(db, 500),
      await measureOverhead(db, 500, undefined, 200),
    ]);
    put("overhead p50 (ms)", kind, fmt(overhead.p50));
    put("overhead p99 (ms)", kind, fmt(overhead.p99));
    put("overhead p99, first loop of the run, no warm-up (ms)", kind, fmt(cold.p99));
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
    if (kind === "postgresql") {
      // The same with two real worker processes (bench/workers-bench.ts), as issue 16 measures it.
      console.error(`… ${kind}: 2 worker processes`);
      const p = await measureWorkerProcesses({ workers: 2, loops: 200, each: 10, groupCommitMs: 2 });
      put("iterations/s, 2 worker processes, 200 loops", kind, fmt(p.perSecond, 0));
    }

    for (const loops of [100, 1000]) {
      console.error(`… ${kind}: memory with ${loops} live loops`);
      const rss = liveRss(kind, loops, loops === 100 ? 10 : 20);
      put(`runtime RSS, ${loops} live loops (MB)`, kind, rss ? `${fmt(rss.rssMb, 0)} (${rss.iterations} it.)` : "n/a");
    }
    // No slot limit: every slice's lease is renewed and watched at once (one batched renewal per tick).
    console.error(`… ${kind}: 1,000 slices at once, no slot limit`);
    const all = liveRss(kind, 1000, 20, 0);
    put("iterations in 20 s, 1,000 slices at once", kind, all ? fmt(all.iterationsInWindow, 0) : "n/a");

    if (atScale) await dashboardFigures(kind, put);
    else console.error(`… ${kind}: dashboard at scale skipped (\`-- --scale\` or \`-- --dashboard\` runs it)`);

    console.error(`… ${kind}: loops.list during a burst of 1,000 loop creations`);
    const burst = await withDatabase(kind, (db) => measureListDuringBurst(db));
    put("loops.list during 1,000 loop creations, p95 (ms)", kind, fmt(burst.p95));

    console.error(`… ${kind}: event → SSE subscriber latency`);
    const latency = await withDatabase(kind, (db) => measureEventLatency(db, { samples: 200 }));
    put("event latency p50 (ms)", kind, fmt(latency.p50Ms));
    put("event latency p95 (ms)", kind, fmt(latency.p95Ms));
  }

  const targets: Record<string, string> = {
    "overhead p99 (ms)": "< 5 (sqlite)",
    "iterations/s, 200 loops": ">= 1000 (sqlite)",
    "iterations/s, 2 workers, 200 loops": ">= 500 (postgresql)",
    "iterations/s, 2 worker processes, 200 loops": ">= 500",
    "event latency p95 (ms)": "< 250",
    "runtime RSS, 100 live loops (MB)": "< 250",
    "runtime RSS, 1000 live loops (MB)": "< 600",
    "iterations in 20 s, 1,000 slices at once": "> 0",
    ...DASHBOARD_TARGETS,
    "loops.list during 1,000 loop creations, p95 (ms)": "< 150",
  };
  printTable(results, targets);

  console.error("… checkpoint size over 1,000 iterations");
  printCheckpointSize(await measureCheckpointSize(1000));

  console.error("… per-iteration breakdown, command agent (SQLite)");
  printGap.breakdown(await withDatabase("sqlite", (db) => measureBreakdown(db, root, 300)));
  console.error("… end-to-end gap through next start");
  printGap.endToEnd(await measureEndToEndGap(root, { iterations: 1000 }));

  await defaultsFigures();
}

/** Issue 36 and 29's figures: the gap with the defaults on, the sandbox's launch cost, the snapshot's. */
async function defaultsFigures() {
  console.error("… gap with the defaults on (sandbox, snapshots), beside each turned off, and ralphy-cli");
  const d = await measureDefaultsGap(root, { iterations: 50, rounds: 2 });
  console.log("");
  console.log(
    "end-to-end gap with the defaults on: Claude Code preset on an instant fake `claude`, next start, SQLite (ms)",
  );
  if (!d) console.log("  n/a: run `npm run build` first");
  else {
    const ralphy = d.gaps["ralphy-cli 4.7.2"];
    for (const [name, g] of Object.entries(d.gaps)) {
      const ratio = ralphy && name !== "ralphy-cli 4.7.2" ? `  ratio to ralphy ${fmt(g.p50 / ralphy.p50)}` : "";
      console.log(`  ${name.padEnd(26)} p50 ${fmt(g.p50)}  p95 ${fmt(g.p95)}  (${g.n} gaps)${ratio}`);
    }
    if (ralphy) {
      const def = d.gaps.defaults!;
      const check = d.gaps["defaults + command check"]!;
      console.log(
        `  target: defaults <= 1.0x ralphy (${met(def.p50 <= ralphy.p50)}), with a command check <= 2x (${met(check.p50 <= 2 * ralphy.p50)})`,
      );
    } else console.log("  ralphy-cli: not installed (npm registry unreachable?)");
  }

  console.error("… command agent: cost of the sandbox per launch");
  const sandbox = await measureSandboxCost(40);
  const ms = (m: { p50: number; p95: number }) => `p50 ${fmt(m.p50)} / p95 ${fmt(m.p95)}`;
  console.log("");
  console.log("command agent, one instant iteration (ms)");
  console.log(`  bare spawn of the script         ${ms(sandbox.bareMs)}`);
  console.log(
    `  executor, sandbox off            ${ms(sandbox.unsandboxedMs)}  → executor overhead p50 ${fmt(sandbox.unsandboxedMs.p50 - sandbox.bareMs.p50)} ms (target < 5)`,
  );
  if (!sandbox.available) console.log("  executor, sandboxed              n/a (sandbox unavailable here)");
  else {
    console.log(`  executor, warm sandbox (default) ${ms(sandbox.warmMs)}`);
    console.log(`  executor, a sandbox per process  ${ms(sandbox.sandboxedMs)}  (RALPH_SANDBOX_WARM=off)`);
    console.log(
      `  sandbox launch overhead over unsandboxed: ${ms(sandbox.warmOverheadMs)} (target p50 < 10: ${met(sandbox.warmOverheadMs.p50 < 10)})`,
    );
  }

  console.error("… git snapshot per iteration on a real-shaped 10k-file repository");
  const snap = await measureSnapshotCost(largeSeeds ? 30 : 15);
  console.log("");
  console.log(
    `git snapshot of one iteration (commit, diff, tamper check), real-shaped repo of ${snap.files} files in ${snap.folders} folders, ${snap.changed} changed (ms)`,
  );
  console.log(`  snapshot ${ms(snap)}  (target p50 < 150: ${met(snap.p50 < 150)})`);
  console.log(
    `  git status of the same worktree p50 ${fmt(snap.statusP50)}; snapshot / status, median of pairs ${fmt(snap.ratio)} (target <= 1.5: ${met(snap.ratio <= 1.5)})`,
  );
  console.log(
    `  first worktree of the repository ${fmt(snap.firstWorktreeMs, 0)} ms (target < 2,000, else shown as a step)`,
  );
}

const met = (ok: boolean) => (ok ? "met" : "NOT met");
// --large: more samples of the slow figures (the snapshot's); the default keeps the bench short.
const largeSeeds = process.argv.includes("--large");
const defaultsOnly = process.argv.includes("--defaults");

if (dashboardOnly) await dashboardOnlyFigures();
else if (defaultsOnly) await defaultsFigures();
else {
  if (!uiOnly) await runtimeFigures();
  await printUiFigures(root, uiPort, uiOnlyFigures, lighthouseRuns, uiOnly || onlyArg !== undefined);
}
process.exit(0);

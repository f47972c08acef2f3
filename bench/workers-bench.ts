// Iterations per second with N real worker processes (bench/worker-process.ts,
// the standalone worker's loop with an instant agent) sharing one PostgreSQL
// database: the figure issue 16 asks for (2 workers, 200 loops). Runs pairs of
// group commit on / off in the same window, so load swings hit both alike.
// `npx tsx bench/workers-bench.ts [--workers=2] [--loops=200] [--each=10] [--pairs=2] [--window=2]
//  [--only=off|on] [--profile=<dir>] [--queries]`: `--profile` writes each worker's CPU profile into <dir>
// (`npx tsx bench/profile-summary.ts <file>` sums one), `--queries` prints each worker's statements per iteration.
import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { openDatabase } from "../server/db/client";
import { migrate } from "../server/db/migrations/migrator";
import { getEnv } from "../server/env";
import { LocalDispatcher } from "../server/jobs/local-dispatcher";
import { systemDeps } from "../server/jobs/system-deps";
import { createLoop } from "../server/loops/loop-create.service";
import { LOCAL_OPERATOR } from "../server/auth/actor";
import { createTempDatabase } from "../test/temp-database";

const text = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
const arg = (name: string, fallback: number) => Number(text(name) ?? fallback);
const profileDir = text("profile");
const countQueries = process.argv.includes("--queries");

interface ChildReport {
  calls: number;
  cpuMs: number;
  stats: { transactions: number; writes: number; largestBatch: number } | null;
  queries?: Record<string, number>;
}

/** CPU ms spent so far by the PostgreSQL backends serving `database` (Linux /proc; 0 elsewhere). */
function backendCpuMs(database: string) {
  let ticks = 0;
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(` ${database} `)) continue;
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // The process ended meanwhile, or is not ours to read.
    }
  }
  return ticks * 10; // USER_HZ is 100 on Linux
}

function startChild(url: string, groupCommitMs: number, concurrency: number) {
  const child = spawn(
    process.execPath,
    [
      ...(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []),
      "--import",
      "tsx",
      "bench/worker-process.ts",
      url,
      String(groupCommitMs),
      String(concurrency),
      ...(countQueries ? ["--queries"] : []),
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const lines = createInterface({ input: child.stdout! });
  const ready = new Promise<void>((resolve, reject) => {
    lines.on("line", (line) => line === "ready" && resolve());
    child.once("exit", (code) => reject(new Error(`worker exited early (${code})`)));
  });
  const report = new Promise<ChildReport>((resolve, reject) => {
    lines.on("line", (line) => line.startsWith("{") && resolve(JSON.parse(line) as ChildReport));
    child.once("exit", (code) => reject(new Error(`worker exited without a report (${code})`)));
  });
  return { child, ready, report };
}

export async function measureWorkerProcesses(options: {
  workers: number;
  loops: number;
  each: number;
  groupCommitMs: number;
}) {
  const env = getEnv();
  const temp = await createTempDatabase("postgresql", env.RALPH_PG_ADMIN_URL, "bench");
  const children: ChildProcess[] = [];
  try {
    await migrate(temp.target, process.cwd());
    const db = openDatabase(temp.target, { poolSize: 5 });
    const services = { db, dispatcher: new LocalDispatcher(), engine: systemDeps };
    for (let i = 0; i < options.loops; i++) {
      await createLoop(
        services,
        {
          goal: `bench ${i}`,
          agentKind: "instant",
          definition: {},
          engineConfig: {
            stop: { maxIterations: options.each, noProgressIterations: 0, maxConsecutiveFailures: 0 },
            reflection: { enabled: false },
            health: { checkInterval: 0 },
          },
          start: false,
        },
        { actor: LOCAL_OPERATOR, reason: "bench" },
      );
    }
    const started = Array.from({ length: options.workers }, () =>
      startChild(temp.target.url, options.groupCommitMs, Math.ceil(options.loops / options.workers)),
    );
    children.push(...started.map((s) => s.child));
    await Promise.all(started.map((s) => s.ready));
    const load = loadavg()[0]!;
    const t0 = performance.now();
    await db.prisma.loop.updateMany({ where: { status: "draft" }, data: { status: "queued" } });
    for (;;) {
      const open = await db.prisma.loop.count({ where: { status: { in: ["queued", "running"] } } });
      if (open === 0) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    const seconds = (performance.now() - t0) / 1000;
    const databaseCpuMs = backendCpuMs(new URL(temp.target.url).pathname.slice(1));
    for (const s of started) s.child.kill("SIGTERM");
    const reports = await Promise.all(started.map((s) => s.report));
    // A child still writes its CPU profile after its report: let it exit on its own.
    await Promise.all(
      started.map(
        (s) =>
          new Promise((resolve) => {
            if (s.child.exitCode !== null) return resolve(null);
            s.child.once("exit", resolve);
            setTimeout(resolve, 10_000).unref();
          }),
      ),
    );
    const iterations = await db.prisma.iteration.count({ where: { status: { not: "interrupted" } } });
    const interrupted = await db.prisma.iteration.count({ where: { status: "interrupted" } });
    const ended = await db.prisma.loop.groupBy({ by: ["status"], _count: true });
    const failed = await db.prisma.loop.groupBy({
      by: ["stopType", "stopReason"],
      where: { status: { notIn: ["stopped", "completed"] } },
      _count: true,
    });
    const statuses = [
      ...ended.map((g) => `${g._count} ${g.status}`),
      ...failed.map((g) => `(${g._count}: ${g.stopType} ${g.stopReason?.slice(0, 120)})`),
    ].join(", ");
    await db.close();
    const calls = reports.reduce((n, r) => n + r.calls, 0);
    const writes = reports.reduce((n, r) => n + (r.stats?.writes ?? 0), 0);
    const transactions = reports.reduce((n, r) => n + (r.stats?.transactions ?? 0), 0);
    return {
      groupCommitMs: options.groupCommitMs,
      iterations,
      interrupted,
      agentCalls: calls,
      seconds,
      perSecond: iterations / seconds,
      stepsPerSecond: writes / seconds,
      stepsPerTransaction: transactions ? writes / transactions : 0,
      largestBatch: Math.max(...reports.map((r) => r.stats?.largestBatch ?? 0)),
      workerCpuMsPerIteration: reports.reduce((n, r) => n + r.cpuMs, 0) / iterations,
      /** PostgreSQL backends of this database (the run's, plus the setup's few), per iteration. */
      databaseCpuMsPerIteration: databaseCpuMs / iterations,
      loadAverage: load,
      statuses,
      queries: reports.map((r) => r.queries ?? {}),
    };
  } finally {
    for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
    await temp.drop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const workers = arg("workers", 2);
  const loops = arg("loops", 200);
  const each = arg("each", 10);
  const windowMs = arg("window", 2);
  const only = text("only");
  const modes = only === "off" ? [0] : only === "on" ? [windowMs] : [0, windowMs];
  for (let pair = 0; pair < arg("pairs", 2); pair++) {
    for (const groupCommitMs of modes) {
      const r = await measureWorkerProcesses({ workers, loops, each, groupCommitMs });
      console.log(
        `${workers} worker processes, ${loops} loops × ${each}, group commit ${groupCommitMs ? `${groupCommitMs} ms` : "off"}: ` +
          `${r.perSecond.toFixed(0)} it/s, ${r.stepsPerSecond.toFixed(0)} steps/s, ` +
          `${r.stepsPerTransaction.toFixed(1)} steps/tx (largest ${r.largestBatch}), ` +
          `${r.iterations} it. + ${r.interrupted} interrupted, ${r.agentCalls} agent calls, loops ${r.statuses}, ${r.seconds.toFixed(1)} s, ` +
          `CPU per it.: workers ${r.workerCpuMsPerIteration.toFixed(2)} ms, PostgreSQL ${r.databaseCpuMsPerIteration.toFixed(2)} ms, load ${r.loadAverage.toFixed(1)}`,
      );
      if (countQueries) {
        const all = new Map<string, number>();
        for (const q of r.queries) for (const [k, n] of Object.entries(q)) all.set(k, (all.get(k) ?? 0) + n);
        const total = [...all.values()].reduce((a, b) => a + b, 0);
        console.log(`  statements per iteration: ${(total / r.iterations).toFixed(2)}`);
        for (const [k, n] of [...all.entries()].sort((a, b) => b[1] - a[1]))
          console.log(`  ${(n / r.iterations).toFixed(2).padStart(6)}  ${k}`);
      }
    }
  }
}

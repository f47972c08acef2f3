// The whole runtime's cost per iteration, load-independent enough to compare two trees in one window:
// main-thread CPU (process.cpuUsage over the run) per iteration, beside iterations/s, for N loops with an
// instant in-process agent (bench/runtime-bench.ts). `tsx bench/runtime-cpu.ts [loops] [iterationsEach]
// [--postgresql] [--overhead N] [--profile <file.cpuprofile>]` prints one JSON line; `--profile` writes a CPU
// profile of the timed run alone (read it with `tsx bench/profile-summary.ts <file>`).
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { loadavg } from "node:os";
import { openDatabase } from "../server/db/client";
import type { SqliteLoopStore } from "../server/db/loop-store/sqlite-loop-store";
import { migrate } from "../server/db/migrations/migrator";
import { createTempDatabase } from "../test/temp-database";
import { getEnv } from "../server/env";
import { measureOverhead, measureThroughput } from "./runtime-bench";

const args = process.argv.slice(2);
const numbers = args.filter((a) => /^\d+$/.test(a)).map(Number);
const loops = numbers[0] ?? 200;
const iterationsEach = numbers[1] ?? 10;
const kind = args.includes("--postgresql") ? "postgresql" : "sqlite";
const overheadAt = args.indexOf("--overhead");
const overheadIterations = overheadAt >= 0 ? Number(args[overheadAt + 1]) : 0;
const profileAt = args.indexOf("--profile");
const profileFile = profileAt >= 0 ? args[profileAt + 1] : undefined;

/** A CPU profile of the timed run alone (not the loops' creation), written to `file`. */
function profiled(file: string) {
  const session = new Session();
  return {
    async before() {
      session.connect();
      await session.post("Profiler.enable");
      await session.post("Profiler.start");
    },
    async after() {
      const { profile } = await session.post("Profiler.stop");
      writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
}

async function withDatabase<T>(fn: (db: ReturnType<typeof openDatabase>) => Promise<T>) {
  const temp = await createTempDatabase(kind, getEnv().RALPH_PG_ADMIN_URL, "bench");
  await migrate(temp.target, process.cwd());
  const db = openDatabase(temp.target, { poolSize: 20 });
  try {
    return await fn(db);
  } finally {
    await db.close();
    await temp.drop();
  }
}

const round = (n: number, digits = 3) => Math.round(n * 10 ** digits) / 10 ** digits;

const out: Record<string, unknown> = { kind, loops, iterationsEach, loadBefore: round(loadavg()[0]!, 2) };
/**
 * `--statements`: every statement Prisma's SQLite adapter prepares during the run, counted by its SQL (the
 * adapter prepares each query anew; the lean step commit prepares once), to see which reads an iteration pays.
 */
const countStatements = args.includes("--statements");
async function statementCounter(db: ReturnType<typeof openDatabase>) {
  const counts = new Map<string, number>();
  const { client } = await (db.loopStore as SqliteLoopStore).connection();
  const prepare = client.prepare.bind(client);
  let on = false;
  client.prepare = ((sql: string) => {
    if (on) counts.set(sql, (counts.get(sql) ?? 0) + 1);
    return prepare(sql);
  }) as typeof client.prepare;
  return {
    before: async () => void (on = true),
    after: async () => void (on = false),
    top: () =>
      [...counts.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 25)
        .map(([sql, n]) => `${n} ${sql.slice(0, 160)}`),
  };
}

await withDatabase(async (db) => {
  const counter = countStatements && kind === "sqlite" ? await statementCounter(db) : undefined;
  const around = profileFile ? profiled(profileFile) : counter;
  const t = await measureThroughput(db, loops, iterationsEach, around);
  if (counter) out.statements = counter.top();
  Object.assign(out, {
    iterations: t.iterations,
    perSecond: round(t.perSecond, 1),
    cpuMsPerIteration: round(t.cpuMsPerIteration),
  });
});
if (overheadIterations > 0)
  await withDatabase(async (db) => {
    const cpu = process.cpuUsage();
    const o = await measureOverhead(db, overheadIterations);
    const used = process.cpuUsage(cpu);
    Object.assign(out, {
      overheadP50: round(o.p50),
      overheadP99: round(o.p99),
      overheadCpuMsPerIteration: round((used.user + used.system) / 1000 / o.iterations),
    });
  });
out.loadAfter = round(loadavg()[0]!, 2);
console.log(JSON.stringify(out));

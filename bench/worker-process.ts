// One worker process of bench/workers-bench.ts: the standalone worker's own
// loop (startWorker, as `npm run worker` runs it) with an instant in-process
// agent, on the database named in argv. It says "ready" once its worker runs,
// and on SIGTERM stops, then prints its CPU time and step-commit figures.
import { openDatabase } from "../server/db/client";
import { resolveDatabaseTarget } from "../server/db/database-target";
import { DEFAULT_SETTINGS } from "../server/jobs/runtime-deps";
import { startWorker } from "../server/jobs/worker";
import { instantAgent } from "./runtime-bench";
import pg from "pg";

// --queries in workers-bench: every statement this process sends, by its first 80 characters
// (pg.Client.query is what both Prisma's adapter and the lean paths call).
const queries: Record<string, number> = {};
if (process.argv.includes("--queries")) {
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | { text?: string; name?: string };
    const sql = typeof first === "string" ? first : (first.text ?? first.name ?? "?");
    const key = sql.replace(/\s+/g, " ").slice(0, 80);
    queries[key] = (queries[key] ?? 0) + 1;
    return query.apply(this, args);
  } as typeof pg.Client.prototype.query;
}

const [url, groupCommitMs, concurrency] = process.argv.slice(2);
const db = openDatabase(resolveDatabaseTarget(url!, process.cwd()), { groupCommitMs: Number(groupCommitMs) });
let calls = 0;
const agent = instantAgent(() => calls++);
const cpuAtStart = process.cpuUsage();
const worker = startWorker({
  db,
  ports: () => ({ agent }),
  settings: { ...DEFAULT_SETTINGS },
  concurrency: Number(concurrency),
  pollMs: 20,
  log: (m) => console.error(m),
});
console.log("ready");
process.on("SIGTERM", () => {
  void worker.stop().then(async () => {
    const cpu = process.cpuUsage(cpuAtStart);
    if (worker.dispatcher.errorCount) console.error(`worker: ${worker.dispatcher.errorCount} slices failed`);
    console.log(
      JSON.stringify({ calls, cpuMs: (cpu.user + cpu.system) / 1000, stats: db.stepCommit?.stats ?? null, queries }),
    );
    await db.close();
    process.exit(0);
  });
});

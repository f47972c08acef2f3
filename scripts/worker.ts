// npm run worker: runs loops from the database in this process, beside (or
// instead of) the app. Stops cleanly on SIGINT/SIGTERM: running slices finish
// their current iteration; anything cut short resumes from its checkpoint.
import { getEnv } from "../server/env";
import { prepareDatabase } from "../server/db/bootstrap";
import { getDatabase } from "../server/db/database";
import { DEFAULT_SETTINGS } from "../server/jobs/runtime-deps";
import { startWorker } from "../server/jobs/worker";
import { closeEventWakeups, notifyEventsWritten } from "../server/events/event-wakeups";
import { createLoopPorts } from "../server/loops/ports-factory";
import { startProcessLandings } from "../server/jobs/landing-runner";
import { systemDeps } from "../server/jobs/system-deps";

const env = getEnv();
const db = getDatabase();
await prepareDatabase(db.target, process.cwd());

const worker = startWorker({
  db,
  ports: createLoopPorts,
  concurrency: env.RALPH_WORKER_CONCURRENCY,
  pollMs: 250,
  settings: {
    ...DEFAULT_SETTINGS,
    leaseMs: env.RALPH_LEASE_MS,
    heartbeatMs: env.RALPH_HEARTBEAT_MS,
    sliceBudgetMs: env.RALPH_SLICE_BUDGET_MS,
  },
  onEventsWritten: () => void notifyEventsWritten(db).catch(() => undefined),
  log: (m) => console.warn(m),
});
// The merge queue: this worker lands queues nobody else is landing (one lander per target branch).
const landings = startProcessLandings(
  db,
  worker.runtime.instanceId,
  { db, dispatcher: worker.dispatcher, engine: systemDeps },
  (m) => console.warn(m),
);
console.log(
  `Ralph Control worker ${worker.runtime.instanceId}: ${db.kind}, up to ${env.RALPH_WORKER_CONCURRENCY} loops at once, ` +
    (db.stepCommit?.groupCommitMs ? `group commit ${db.stepCommit.groupCommitMs} ms` : "group commit off"),
);

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) process.exit(1);
    stopping = true;
    console.log(`worker: ${signal}, finishing running iterations…`);
    void Promise.all([worker.stop(), landings.stop()]).then(async () => {
      // The last iterations' NOTIFY goes out before the connections close.
      await closeEventWakeups(db);
      await db.close();
      process.exit(0);
    });
  });
}

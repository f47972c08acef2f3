// The job runtime of this app process. Which way it runs slices is decided in
// one place (dispatch-mode.ts): in this process under a global semaphore, as
// signed requests to the job route, or not at all (workers run the loops).
import { getEnv } from "../env";
import { getDatabase } from "../db/database";
import { createLoopPorts } from "../loops/ports-factory";
import type { LoopServices } from "../loops/loop-services";
import { resolveDispatchMode, type DispatchMode } from "./dispatch-mode";
import { HttpDispatcher } from "./http-dispatcher";
import { createJobSigner, resolveJobSecret, type JobSigner } from "./job-signing";
import { LocalDispatcher } from "./local-dispatcher";
import { DEFAULT_SETTINGS, type Dispatcher, type JobRuntime } from "./runtime-deps";
import { Semaphore } from "./semaphore";
import { startSweeper, type Sweeper } from "./sweeper";
import { SPOOL_SWEEP_MS, startSpoolSweep } from "./spool-recovery";
import { startProcessLandings, type LandingSweeper } from "./landing-runner";
import { systemDeps } from "./system-deps";
import { notifyEventsWritten } from "../events/event-wakeups";

export interface AppRuntime {
  jobs: JobRuntime;
  services: LoopServices;
  signer: JobSigner;
  mode: DispatchMode;
  /** Slices this process may run at once, in-process or in its job route (RALPH_APP_CONCURRENCY). */
  slots: Semaphore;
}

/** Leaves loops to standalone workers (`RALPH_RUN_JOBS=false`): they poll for due loops. */
const workersOnly: Dispatcher = { dispatch: () => undefined, dispatchAt: () => undefined };

const globalForRuntime = globalThis as unknown as {
  ralphRuntime?: AppRuntime;
  ralphSweeper?: Sweeper;
  ralphLandings?: LandingSweeper;
};

export function getAppRuntime(): AppRuntime {
  if (globalForRuntime.ralphRuntime) return globalForRuntime.ralphRuntime;
  const env = getEnv();
  const db = getDatabase();
  const signer = createJobSigner(resolveJobSecret(env.RALPH_JOB_SECRET, env.RALPH_DATA_DIR));
  const mode = resolveDispatchMode(env);
  const slots = new Semaphore(env.RALPH_APP_CONCURRENCY);
  const local = mode === "in-process" ? new LocalDispatcher(slots) : undefined;
  const dispatcher: Dispatcher =
    local ??
    (mode === "http"
      ? new HttpDispatcher(
          env.RALPH_INTERNAL_URL ?? `http://127.0.0.1:${env.PORT}`,
          signer,
          undefined,
          env.RALPH_APP_CONCURRENCY,
        )
      : workersOnly);
  const jobs: JobRuntime = {
    db,
    ports: createLoopPorts,
    dispatcher,
    engine: systemDeps,
    settings: {
      ...DEFAULT_SETTINGS,
      leaseMs: env.RALPH_LEASE_MS,
      heartbeatMs: env.RALPH_HEARTBEAT_MS,
      sliceBudgetMs: env.RALPH_SLICE_BUDGET_MS,
    },
    instanceId: `app-${process.pid}`,
    onEventsWritten: () => void notifyEventsWritten(db).catch(() => undefined),
  };
  local?.attach(jobs);
  globalForRuntime.ralphRuntime = {
    jobs,
    services: { db, dispatcher, engine: systemDeps },
    signer,
    mode,
    slots,
  };
  return globalForRuntime.ralphRuntime;
}

/** Starts the sweeper once per process (server start). */
export function startAppSweeper() {
  const env = getEnv();
  if (!env.RALPH_RUN_JOBS || globalForRuntime.ralphSweeper) return;
  const runtime = getAppRuntime();
  globalForRuntime.ralphSweeper = startSweeper(runtime.jobs.db, runtime.jobs.dispatcher, env.RALPH_SWEEP_INTERVAL_MS, {
    initialDelayMs: 1000,
  });
  // Spend a dead runtime's spawn helper spooled (spool-recovery.ts).
  startSpoolSweep(runtime.jobs.db.prisma, SPOOL_SWEEP_MS);
  // The merge queue lands in this process too (one lander per target branch, whichever process takes it).
  globalForRuntime.ralphLandings = startProcessLandings(runtime.jobs.db, runtime.jobs.instanceId, runtime.services);
}

/**
 * `ralph run -f loop.json`: one loop to its end in this process, with no app.
 * The same runtime as the worker (leases, a durable commit per iteration,
 * checkpoints) on the embedded SQLite database, or DATABASE_URL, migrated
 * first; the loop appears in the dashboard of any app pointed at the same
 * database. SIGINT asks for a kill like the UI's (the running iteration is
 * recorded as interrupted and the loop pauses); a second SIGINT leaves at once.
 */
import { fileURLToPath } from "node:url";
import { prepareDatabase } from "../db/bootstrap";
import { getDatabase } from "../db/database";
import { iterationPage } from "../db/iterations.repo";
import { loopById } from "../db/loops.repo";
import { asHealthState, asLoopRowStatus, asStopType } from "../engine";
import { getEnv } from "../env";
import { closeEventWakeups, notifyEventsWritten } from "../events/event-wakeups";
import { requestControl } from "../loops/loop-controls.service";
import { createLoopFromDefinition } from "../loops/loop-create.service";
import { loopDefinitionSchema } from "../loops/loop-definition";
import type { LoopSummary } from "../loops/loop-list.service";
import type { ActingAs, LoopServices } from "../loops/loop-services";
import { createLoopPorts } from "../loops/ports-factory";
import { LocalDispatcher } from "./local-dispatcher";
import { DEFAULT_SETTINGS, type JobRuntime } from "./runtime-deps";
import { systemDeps } from "./system-deps";

/** The checkout's root, where the migrations live, wherever `ralph run` is started from. */
const APP_ROOT = fileURLToPath(new URL("../..", import.meta.url));
const POLL_MS = 200;

/** The loop fields `ralph run` reports: the list view's summary, narrowed. */
export type HeadlessLoop = Pick<
  LoopSummary,
  | "id"
  | "name"
  | "status"
  | "stopType"
  | "stopReason"
  | "health"
  | "iteration"
  | "maxIterations"
  | "costUsd"
  | "budgetUsd"
  | "bestScore"
  | "lastScore"
>;

export interface HeadlessIteration {
  number: number;
  attempt: number;
  status: string;
  meanScore: number | null;
  costUsd: number;
  health: string | null;
}

export interface HeadlessRun {
  /** Called when the loop is created; `database` says which one (kind and file or database name). */
  onStart?(loop: HeadlessLoop, database: string): void;
  /** The iterations stored since the last call, oldest first, with the loop as read just before them. */
  onIterations?(loop: HeadlessLoop, iterations: HeadlessIteration[]): void;
  /** True when the run should stop following (the caller's exit rule: terminal, paused, gate with --no-block). */
  isDone(loop: HeadlessLoop): boolean;
}

/** SIGINTs closer together than this are one key press delivered twice. */
const SAME_PRESS_MS = 1_000;

/** Like the local operator scripts act as: whoever runs the command owns the machine. */
const ACTING: ActingAs = {
  actor: { id: null, email: "ralph run", name: "ralph run", role: "admin" },
  reason: "ralph run",
};

export async function runHeadless(definitionInput: unknown, run: HeadlessRun): Promise<HeadlessLoop> {
  const definition = loopDefinitionSchema.parse(definitionInput);
  const env = getEnv();
  const db = getDatabase();
  await prepareDatabase(db.target, APP_ROOT);
  const dispatcher = new LocalDispatcher();
  const jobs: JobRuntime = {
    db,
    ports: createLoopPorts,
    dispatcher,
    engine: systemDeps,
    settings: { ...DEFAULT_SETTINGS, leaseMs: env.RALPH_LEASE_MS, heartbeatMs: env.RALPH_HEARTBEAT_MS },
    instanceId: `ralph-run-${process.pid}`,
    onEventsWritten: () => void notifyEventsWritten(db).catch(() => undefined),
  };
  dispatcher.attach(jobs);
  const services: LoopServices = { db, dispatcher, engine: systemDeps };

  let interrupts = 0;
  let lastSigint = 0;
  let id: string | null = null;
  const onSigint = () => {
    // One Ctrl-C can arrive twice (the terminal signals the process group, and `npx` forwards it
    // again): within a second it is the same press, not "again to leave at once", and says nothing twice.
    const now = Date.now();
    if (now - lastSigint < SAME_PRESS_MS) return;
    lastSigint = now;
    interrupts++;
    if (interrupts > 1 || !id) process.exit(130);
    process.stderr.write("\nralph run: SIGINT, killing the running iteration (again to leave at once)…\n");
    void requestControl(services, id, { kind: "kill" }, { ...ACTING, reason: "SIGINT to ralph run" }).catch(
      (error: Error) => process.stderr.write(`ralph run: ${error.message}\n`),
    );
  };
  process.on("SIGINT", onSigint);
  try {
    ({ id } = await createLoopFromDefinition(services, definition, true, ACTING));
    const read = async (): Promise<HeadlessLoop> => {
      const row = (await loopById(db.prisma, id!))!;
      return {
        ...row,
        status: asLoopRowStatus(row.status),
        stopType: asStopType(row.stopType),
        health: asHealthState(row.health),
      };
    };
    let loop = await read();
    const where = db.target.kind === "sqlite" ? db.target.file : new URL(db.target.url).pathname.slice(1);
    run.onStart?.(loop, `${db.target.kind} ${where}`);
    let last = { number: 0, attempt: 0 };
    for (;;) {
      loop = await read();
      const rows = await iterationPage(db.prisma, id, { limit: 50 });
      const fresh = rows
        .reverse()
        .filter((i) => i.number > last.number || (i.number === last.number && i.attempt > last.attempt));
      if (fresh.length) run.onIterations?.(loop, fresh);
      const newest = fresh.at(-1);
      if (newest) last = { number: newest.number, attempt: newest.attempt };
      if (run.isDone(loop)) return loop;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  } finally {
    process.off("SIGINT", onSigint);
    await dispatcher.stop();
    await closeEventWakeups(db);
    await db.close();
  }
}

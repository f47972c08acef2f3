// WAL checkpoints off the commit path. SQLite's automatic checkpoint runs
// inside the commit that takes the WAL past 1,000 pages: that commit copies
// the pages into the database file and fsyncs it before returning. A step
// commit writes about 27 pages (the rows and their indexes), so one iteration
// in ~37 paid 2-5 ms more on this disk, which alone set the in-process p99
// (bench/overhead-probe.ts). Here a worker thread with its own connection runs
// PASSIVE checkpoints (they never take the write lock, so commits go on), and
// the app's connection keeps only a far-off automatic checkpoint as a
// backstop should the worker fall behind or die, so the WAL stays bounded.
// Durability is unchanged: a commit is durable once its WAL frames are synced,
// which still happens inside COMMIT; a checkpoint only moves synced frames.
import { Worker } from "node:worker_threads";
import { createRequire } from "node:module";
import { join } from "node:path";
import type BetterSqlite3 from "better-sqlite3";

/** Pages the app's connection lets the WAL reach before checkpointing itself (SQLite's default is 1,000). */
export const BACKSTOP_PAGES = 10_000;
/** How long after a commit the worker checkpoints: commits in between share one checkpoint. */
export const CHECKPOINT_DELAY_MS = 100;

// Shared slots: the runtime's loop can run many iterations without ever
// returning to the event loop (an instant agent resolves at once), so the two
// threads signal through shared memory, never through messages.
const STATE = 0; // IDLE, DUE (a commit asked for a checkpoint) or CLOSE
const DONE = 1; // checkpoints run
const LOG = 2; // frames in the WAL at the last one
const CHECKPOINTED = 3; // of those, frames now in the database file
const FAILED = 4; // checkpoints that failed (busy or an error)
const IDLE = 0;
const DUE = 1;
const CLOSE = 2;

// Plain CommonJS run with eval: no file to find next to a bundled server.
// The worker sleeps in Atomics.wait until a commit marks a checkpoint due,
// waits a little more so later commits share it, and checkpoints.
const WORKER_SOURCE = `
const { workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const slots = new Int32Array(workerData.shared);
const db = new Database(workerData.file, { timeout: 0 });
// A checkpoint syncs the database file before the WAL may be reused only at NORMAL or above.
db.pragma("synchronous = FULL");
const checkpoint = db.prepare("PRAGMA wal_checkpoint(PASSIVE)");
const nap = new Int32Array(new SharedArrayBuffer(4));
for (;;) {
  Atomics.wait(slots, ${STATE}, ${IDLE});
  if (Atomics.load(slots, ${STATE}) === ${CLOSE}) break;
  Atomics.wait(nap, 0, 0, workerData.delayMs);
  if (Atomics.load(slots, ${STATE}) === ${CLOSE}) break;
  // Commits from here on ask again.
  Atomics.compareExchange(slots, ${STATE}, ${DUE}, ${IDLE});
  try {
    const row = checkpoint.get();
    Atomics.store(slots, ${LOG}, row.log);
    Atomics.store(slots, ${CHECKPOINTED}, row.checkpointed);
    if (row.busy) Atomics.add(slots, ${FAILED}, 1);
  } catch (error) {
    Atomics.add(slots, ${FAILED}, 1);
  }
  Atomics.add(slots, ${DONE}, 1);
}
db.close();
`;

/**
 * The better-sqlite3 this process runs, for the worker to load: found from this module (the app, a bundled
 * server chunk, the headless CLI run from any folder), else from the working directory.
 */
function driverPath() {
  for (const base of [import.meta.url, join(process.cwd(), "package.json")]) {
    try {
      return createRequire(base).resolve("better-sqlite3");
    } catch {
      // the next base
    }
  }
  throw new Error("better-sqlite3 not found from the server's modules or the working directory");
}

export interface CheckpointReport {
  /** Checkpoints run so far, and how many of them failed or found the WAL busy. */
  checkpoints: number;
  failed: number;
  /** Frames in the WAL at the last checkpoint, and of those, frames copied into the database file. */
  log: number;
  checkpointed: number;
}

export class WalCheckpointer {
  private readonly worker: Worker;
  private readonly slots = new Int32Array(new SharedArrayBuffer(5 * 4));
  private closed = false;

  constructor(client: BetterSqlite3.Database, file: string, delayMs = CHECKPOINT_DELAY_MS) {
    const driver = driverPath();
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { driver, file, delayMs, shared: this.slots.buffer },
    });
    // Only once the worker exists: without it SQLite's default (1,000 pages) stays.
    client.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
    // The checkpoints are housekeeping: they never keep the process alive.
    this.worker.unref();
    // A dead worker leaves the backstop in charge; commits do not depend on it.
    this.worker.on("error", (error) => {
      this.closed = true;
      console.warn(`WAL checkpoint worker stopped (SQLite's own checkpoint takes over): ${error.message}`);
    });
  }

  /** After a commit: a checkpoint soon, unless one is already due. */
  noteCommit() {
    if (this.closed) return;
    if (Atomics.compareExchange(this.slots, STATE, IDLE, DUE) === IDLE) Atomics.notify(this.slots, STATE);
  }

  report(): CheckpointReport {
    return {
      checkpoints: Atomics.load(this.slots, DONE),
      failed: Atomics.load(this.slots, FAILED),
      log: Atomics.load(this.slots, LOG),
      checkpointed: Atomics.load(this.slots, CHECKPOINTED),
    };
  }

  /** Stops the worker; it closes its connection first. */
  async close() {
    if (this.closed) return;
    this.closed = true;
    const exited = new Promise<void>((resolve) => this.worker.once("exit", () => resolve()));
    // Unreferenced, the worker would let the process end while close() waits for it.
    this.worker.ref();
    Atomics.store(this.slots, STATE, CLOSE);
    Atomics.notify(this.slots, STATE);
    await exited;
  }
}

/** A checkpointer for a file database in WAL mode, or null (memory, another journal mode). */
export function startWalCheckpointer(client: BetterSqlite3.Database, file: string | undefined) {
  if (!file || client.memory) return null;
  const mode = client.pragma("journal_mode", { simple: true });
  if (mode !== "wal") return null;
  try {
    return new WalCheckpointer(client, file);
  } catch (error) {
    // Housekeeping only: without the worker, SQLite's automatic checkpoint (the backstop) keeps the WAL bounded.
    console.warn(`WAL checkpoint worker not started (SQLite's own checkpoint stays in charge): ${String(error)}`);
    return null;
  }
}

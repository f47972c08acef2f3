// Wake-ups for live event readers. A wake-up only says "look again": readers
// always re-read the event table, so a lost or duplicated wake-up costs latency,
// never correctness, and the readers' fallback poll covers anything missed.
//
// Sources, per database:
// - in-process: notifyEventsWritten() after a commit in this process;
// - PostgreSQL: one dedicated LISTEN connection per process, fed by pg_notify
//   from writers in any process (workers, other app instances);
// - SQLite: a file watch on the database's WAL, so a second process writing to
//   the same file (a CLI, a worker) is noticed without waiting for the poll.
import { EventEmitter } from "node:events";
import type { Database } from "../db/client";
import type { DatabaseTarget } from "../db/database-target";
import { signalEventsWritten, watchEventWrites } from "../db/event-signals";

export interface WakeupSource {
  /** Calls `listener` on every wake-up until the returned function is called. */
  subscribe(listener: () => void): () => void;
}

export interface EventWakeups extends WakeupSource {
  /** Wakes this process's readers. */
  wake(): void;
  /** Readers currently subscribed: a stream that ended has unsubscribed. */
  readonly subscriberCount: number;
  close(): Promise<void>;
}

class WakeupHub implements EventWakeups {
  private readonly emitter = new EventEmitter();
  private started = false;
  private watcher: { close(): Promise<void> } | null = null;

  constructor(private readonly target: DatabaseTarget) {
    // Every open stream is one listener; there is no leak to warn about.
    this.emitter.setMaxListeners(0);
  }

  readonly wake = () => {
    this.emitter.emit("wake");
  };

  get subscriberCount() {
    return this.emitter.listenerCount("wake");
  }

  subscribe(listener: () => void) {
    this.startSources();
    this.emitter.on("wake", listener);
    return () => {
      this.emitter.off("wake", listener);
    };
  }

  // Started on first use, so processes that only write (workers) hold no
  // listening connection.
  private startSources() {
    if (this.started) return;
    this.started = true;
    this.watcher = watchEventWrites(this.target, this.wake);
  }

  async close() {
    this.emitter.removeAllListeners();
    await this.watcher?.close();
  }
}

interface Registry {
  hubs: Map<string, WakeupHub>;
  notifiers: Map<string, Notifier>;
}

// Kept on globalThis so dev-mode module reloads share one LISTEN connection.
const globalForWakeups = globalThis as unknown as { ralphEventWakeups?: Registry };
const registry = (globalForWakeups.ralphEventWakeups ??= { hubs: new Map(), notifiers: new Map() });

/** The process-wide wake-up source for this database. */
export function getEventWakeups(database: Database): EventWakeups {
  let hub = registry.hubs.get(database.target.url);
  if (!hub) {
    hub = new WakeupHub(database.target);
    registry.hubs.set(database.target.url, hub);
  }
  return hub;
}

/**
 * Closes the wake-up sources (all of them without a database): for tests and
 * shutdown, before the database itself is closed. A NOTIFY still queued is sent
 * first: sent after the close, it would reopen the client's pool and leave its
 * connections behind.
 */
export async function closeEventWakeups(database?: Database): Promise<void> {
  const urls = database ? [database.target.url] : [...new Set([...registry.hubs.keys(), ...registry.notifiers.keys()])];
  for (const url of urls) {
    const hub = registry.hubs.get(url);
    const notifier = registry.notifiers.get(url);
    registry.hubs.delete(url);
    registry.notifiers.delete(url);
    await notifier?.settled();
    await hub?.close();
  }
}

/** Coalesces pg_notify: at most one in flight and at most one per NOTIFY_SPACING_MS;
 *  commits arriving meanwhile share the next one. NOTIFY serializes notifying
 *  commits cluster-wide, so a busy worker must not send one per commit. */
const NOTIFY_SPACING_MS = 10;

class Notifier {
  private busy = false;
  private failed = false;
  private database: Database | null = null;
  /** Callers waiting for the next NOTIFY; all of them share it. */
  private waiting: { promise: Promise<void>; resolve: () => void } | null = null;
  /** Resolved when no NOTIFY is being sent or waits for its turn. */
  private onIdle: (() => void)[] = [];

  settled(): Promise<void> {
    return this.busy ? new Promise((resolve) => this.onIdle.push(resolve)) : Promise.resolve();
  }

  request(database: Database): Promise<void> {
    // The newest handle: an older one for the same URL may have been closed.
    this.database = database;
    if (!this.waiting) {
      let resolve = () => {};
      const promise = new Promise<void>((r) => (resolve = r));
      this.waiting = { promise, resolve };
    }
    const { promise } = this.waiting;
    if (!this.busy) void this.send();
    return promise;
  }

  private async send() {
    this.busy = true;
    const batch = this.waiting;
    this.waiting = null;
    try {
      if (this.database) await signalEventsWritten(this.database);
      this.failed = false;
    } catch (error) {
      // Readers elsewhere still poll; say so once, not once per commit.
      if (!this.failed) console.warn("Event notification failed; other processes fall back to polling:", error);
      this.failed = true;
    }
    batch?.resolve();
    setTimeout(() => {
      if (this.waiting) return void this.send();
      this.busy = false;
      for (const resolve of this.onIdle.splice(0)) resolve();
    }, NOTIFY_SPACING_MS).unref();
  }
}

/** Tells other processes (PostgreSQL) that events were committed. */
export function notifyOtherProcesses(database: Database): Promise<void> {
  if (database.kind !== "postgresql") return Promise.resolve();
  let notifier = registry.notifiers.get(database.target.url);
  if (!notifier) {
    notifier = new Notifier();
    registry.notifiers.set(database.target.url, notifier);
  }
  return notifier.request(database);
}

/**
 * Call after every commit that appended events. Cheap and never rejects: wakes
 * this process's readers at once and, on PostgreSQL, other processes' readers
 * through pg_notify. Fire and forget, or await it (before exiting) to know the
 * NOTIFY covering this commit has been sent.
 */
export function notifyEventsWritten(database: Database): Promise<void> {
  registry.hubs.get(database.target.url)?.wake();
  return notifyOtherProcesses(database);
}

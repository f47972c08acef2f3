// How one process learns that another committed events, per provider: a
// LISTEN connection on PostgreSQL that survives dropped connections (fed by
// pg_notify from any writer), and a watch on the SQLite WAL file. These are
// storage mechanics, so they live here; server/events/event-wakeups.ts turns
// them into wake-ups for live readers.
import { randomUUID } from "node:crypto";
import { watch, type FSWatcher } from "node:fs";
import { basename, dirname } from "node:path";
import pg from "pg";
import type { PrismaHandle } from "./prisma-client";
import type { DatabaseTarget } from "./database-target";

export const EVENTS_CHANNEL = "ralph_events";
export const LISTENER_APPLICATION_NAME = "ralph-events-listener";
/** Sent as the NOTIFY payload, so a process ignores the echo of its own
 *  notifications: its readers were already woken directly. */
const PROCESS_NOTIFY_TOKEN = ((globalThis as { ralphNotifyToken?: string }).ralphNotifyToken ??= randomUUID());

const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 5_000;

class PgListener {
  private client: pg.Client | null = null;
  private retryMs = RECONNECT_MIN_MS;
  private retryTimer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly onWake: () => void,
  ) {}

  start() {
    void this.connect();
  }

  private async connect() {
    this.retryTimer = null;
    if (this.closed) return;
    const client = new pg.Client({
      connectionString: this.url,
      application_name: LISTENER_APPLICATION_NAME,
      keepAlive: true,
    });
    let dropped = false;
    const drop = () => {
      if (dropped) return;
      dropped = true;
      if (this.client === client) this.client = null;
      client.end().catch(() => undefined);
      this.scheduleReconnect();
    };
    // Without an error listener a dropped connection would crash the process.
    client.on("error", drop);
    client.on("end", drop);
    client.on("notification", (message) => {
      if (message.payload !== PROCESS_NOTIFY_TOKEN) this.onWake();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${EVENTS_CHANNEL}`);
    } catch {
      drop();
      return;
    }
    if (this.closed) {
      dropped = true;
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.retryMs = RECONNECT_MIN_MS;
    // Notifications sent while we were not listening are lost: look now.
    this.onWake();
  }

  private scheduleReconnect() {
    if (this.closed || this.retryTimer) return;
    this.retryTimer = setTimeout(() => void this.connect(), this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(this.retryMs * 2, RECONNECT_MAX_MS);
  }

  async close() {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }
}

// A WAL write is seen before the commit is visible (the wal-index update that
// publishes it follows the write and its fsync), so a wake-up right away can be
// too early. Follow-up wake-ups after it catch the commit once published.
const WAL_FOLLOW_UP_MS = [25, 150];

function watchSqliteWal(file: string, onWake: () => void): { close(): void } | null {
  const names = new Set([basename(file), `${basename(file)}-wal`]);
  const timers = new Set<NodeJS.Timeout>();
  let following = false;
  const onChange = () => {
    onWake();
    if (following) return;
    following = true;
    for (const ms of WAL_FOLLOW_UP_MS) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (timers.size === 0) following = false;
        onWake();
      }, ms);
      timer.unref();
      timers.add(timer);
    }
  };
  let watcher: FSWatcher;
  try {
    watcher = watch(dirname(file), { persistent: false }, (_event, name) => {
      if (name && names.has(name.toString())) onChange();
    });
  } catch {
    // Some file systems cannot be watched; the readers' fallback poll remains.
    return null;
  }
  watcher.on("error", () => watcher.close());
  return {
    close() {
      watcher.close();
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}

/**
 * Calls `onWake` whenever another process may have committed events to this
 * database (and once after every (re)connection, since notifications sent
 * meanwhile are lost). Null when nothing can be watched here: readers then
 * rely on their fallback poll.
 */
export function watchEventWrites(target: DatabaseTarget, onWake: () => void): { close(): Promise<void> } | null {
  if (target.kind === "postgresql") {
    const listener = new PgListener(target.url, onWake);
    listener.start();
    return { close: () => listener.close() };
  }
  const watcher = watchSqliteWal(target.file, onWake);
  return watcher && { close: async () => watcher.close() };
}

/**
 * Wakes listeners in other processes (PostgreSQL NOTIFY on EVENTS_CHANNEL); a
 * no-op on SQLite, whose WAL watch needs no signal. Runs outside any
 * transaction: NOTIFY inside one would only fire at its commit anyway. The
 * payload defaults to this process's token, so its own listener ignores the echo.
 */
export async function signalEventsWritten(database: PrismaHandle, payload = PROCESS_NOTIFY_TOKEN): Promise<void> {
  if (database.kind !== "postgresql") return;
  await database.prisma.$executeRaw`SELECT pg_notify(${EVENTS_CHANNEL}, ${payload})`;
}

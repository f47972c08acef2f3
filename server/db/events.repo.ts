// The append-only audit and live-update log. Ids only grow; readers resume
// from the last id they saw.
import { ALERTABLE_EVENT_TYPES } from "../alert-kinds";
import { LIVE_EVENT } from "../live-output";
import { enqueueAlerts } from "./alerts.repo";
import type { Db, PrismaHandle } from "./prisma-client";
import type { Prisma } from "./generated/sqlite/client";
import { inTransaction, type Tx } from "./tx";

export interface NewLoopEvent {
  loopId: string | null;
  type: string;
  actorId?: string | null;
  actor?: string;
  reason?: string | null;
  payload?: unknown;
}

export interface StoredLoopEvent {
  id: number;
  loopId: string | null;
  type: string;
  actorId: string | null;
  actor: string;
  reason: string | null;
  payload: unknown;
  createdAt: Date;
}

/** An event as stored (the lean step commit writes the same row). */
export const toRow = (e: NewLoopEvent): Prisma.LoopEventCreateManyInput => ({
  loopId: e.loopId,
  type: e.type,
  actorId: e.actorId ?? null,
  actor: e.actor ?? "system",
  reason: e.reason ?? null,
  payload: (e.payload ?? undefined) as Prisma.InputJsonValue | undefined,
});

/**
 * Appends events. Events that raise an alert also fill the alert outbox in the
 * same statement batch, so callers inside a transaction (all of them) get the
 * transactional outbox for free: the event and its deliveries commit together.
 */
export async function appendEvents(tx: Tx | Db, events: NewLoopEvent[]): Promise<void> {
  if (events.length === 0) return;
  if (!events.some((e) => ALERTABLE_EVENT_TYPES.has(e.type))) {
    await tx.loopEvent.createMany({ data: events.map(toRow) });
    return;
  }
  const stored = await tx.loopEvent.createManyAndReturn({
    data: events.map(toRow),
    select: { id: true, loopId: true, type: true, payload: true, createdAt: true },
  });
  await enqueueAlerts(tx, stored, stored[0]?.createdAt ?? new Date());
}

export async function readEventsAfter(
  db: Tx | Db,
  afterId: number,
  options: { loopId?: string; limit?: number; throughId?: number } = {},
): Promise<StoredLoopEvent[]> {
  return db.loopEvent.findMany({
    where: {
      id: { gt: afterId, ...(options.throughId !== undefined ? { lte: options.throughId } : {}) },
      ...(options.loopId ? { loopId: options.loopId } : {}),
    },
    orderBy: { id: "asc" },
    take: options.limit ?? 500,
  });
}

export async function latestEventId(db: Tx | Db): Promise<number> {
  const last = await db.loopEvent.findFirst({ orderBy: { id: "desc" }, select: { id: true } });
  return last?.id ?? 0;
}

export async function listEvents(
  db: Db,
  loopId: string,
  options: { beforeId?: number; limit: number; types?: string[] },
): Promise<StoredLoopEvent[]> {
  return db.loopEvent.findMany({
    where: {
      loopId,
      ...(options.beforeId ? { id: { lt: options.beforeId } } : {}),
      // The live view's transient rows are not part of the audit log.
      type: options.types?.length ? { in: options.types } : { not: LIVE_EVENT },
    },
    orderBy: { id: "desc" },
    take: options.limit,
  });
}

export interface EventIdWindow {
  /** Ids after `afterId` across all loops, ascending: a live reader needs the
   *  unfiltered sequence to tell a gap from another loop's event. */
  ids: number[];
  /** PostgreSQL only: the bounds of the very snapshot the ids were read in, so a
   *  reader can tell when every transaction that could still fill a gap has ended. */
  snapshot: { xmin: bigint; xmax: bigint } | null;
}

/**
 * Runs `read` so that it sees committed rows only. Prisma's better-sqlite3
 * adapter has a single connection, and a query outside a transaction runs on it
 * even while another caller's interactive transaction is open there: it sees
 * that transaction's uncommitted rows. A live reader would deliver an event
 * that may still roll back, and SQLite's AUTOINCREMENT then hands the same id to
 * the next event, which the reader would skip. Inside $transaction the adapter's
 * mutex first waits for the open transaction. PostgreSQL reads on its own
 * pooled connection and never sees uncommitted rows.
 */
function committedRead<T>(database: PrismaHandle, read: (db: Tx | Db) => Promise<T>): Promise<T> {
  return database.kind === "sqlite" ? inTransaction(database.prisma, read) : read(database.prisma);
}

/** readEventsAfter for live readers: committed events only (see committedRead). */
export function readCommittedEventsAfter(
  database: PrismaHandle,
  afterId: number,
  options: { loopId?: string; limit?: number; throughId?: number } = {},
): Promise<StoredLoopEvent[]> {
  return committedRead(database, (db) => readEventsAfter(db, afterId, options));
}

/** latestEventId for live readers: the newest committed id (see committedRead). */
export function latestCommittedEventId(database: PrismaHandle): Promise<number> {
  return committedRead(database, (db) => latestEventId(db));
}

export async function readEventIdsAfter(
  database: PrismaHandle,
  afterId: number,
  limit: number,
): Promise<EventIdWindow> {
  if (database.kind === "sqlite") {
    const rows = await committedRead(database, (db) =>
      db.loopEvent.findMany({
        where: { id: { gt: afterId } },
        orderBy: { id: "asc" },
        take: limit,
        select: { id: true },
      }),
    );
    return { ids: rows.map((r) => r.id), snapshot: null };
  }
  // One statement, so the snapshot reported is the one the ids were read in.
  // The lateral join keeps one row (with a null id) when there are no ids.
  const rows = await database.prisma.$queryRaw<{ id: number | null; xmin: string; xmax: string }[]>`
    WITH s AS (SELECT pg_current_snapshot() AS snap)
    SELECT e.id, pg_snapshot_xmin(s.snap)::text AS xmin, pg_snapshot_xmax(s.snap)::text AS xmax
    FROM s LEFT JOIN LATERAL (
      SELECT id FROM "LoopEvent" WHERE id > ${afterId} ORDER BY id LIMIT ${limit}
    ) e ON true
    ORDER BY e.id`;
  const first = rows[0];
  return {
    ids: rows.flatMap((r) => (r.id === null ? [] : [Number(r.id)])),
    snapshot: first ? { xmin: BigInt(first.xmin), xmax: BigInt(first.xmax) } : null,
  };
}

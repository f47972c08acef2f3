// The merge queue's storage (docs/merge-queue.md). A queue row per repository
// and target branch carries the lease that makes one worker at a time the
// lander of that branch; every write a lander makes about its entries is
// fenced by that lease (the write happens only while it still holds it), so
// a worker that stalled past its lease cannot record over the one that took
// the queue from it. Writes run in explicit transactions, as in
// loop-lease.repo.ts: the SQLite adapter shares one connection.
import { appendEvents, type NewLoopEvent } from "./events.repo";
import type { Db } from "./client";
import type { Prisma } from "./generated/sqlite/client";
import { isStorageConflict } from "./storage-errors";
import { inTransaction, type Tx } from "./tx";

export const LANDING_STATUSES = ["queued", "rebasing", "checking", "landed", "needs_review", "cancelled"] as const;
export type LandingStatus = (typeof LANDING_STATUSES)[number];
/** An entry still to be landed: it holds a place in its queue. */
export const OPEN_LANDING_STATUSES: readonly LandingStatus[] = ["queued", "rebasing", "checking"];

export type LandingEntryRow = Prisma.LandingEntryGetPayload<object>;
export type LandingQueueRow = Prisma.LandingQueueGetPayload<object>;

/** The queue of `repo` + `targetBranch`, made on first use (two makers at once: one row). */
export async function ensureQueue(
  db: Db,
  q: { id: string; repo: string; targetBranch: string },
): Promise<LandingQueueRow> {
  const where = { repo_targetBranch: { repo: q.repo, targetBranch: q.targetBranch } };
  const found = await db.landingQueue.findUnique({ where });
  if (found) return found;
  try {
    return await inTransaction(db, (tx) => tx.landingQueue.create({ data: q }));
  } catch (error) {
    if (!isStorageConflict(error)) throw error;
    return db.landingQueue.findUniqueOrThrow({ where });
  }
}

export const queueById = (db: Db | Tx, id: string) => db.landingQueue.findUnique({ where: { id } });
export const entryById = (db: Db | Tx, id: string) => db.landingEntry.findUnique({ where: { id } });

export const setQueueStrategy = (db: Db, id: string, strategy: "rebase" | "merge") =>
  inTransaction(db, (tx) => tx.landingQueue.update({ where: { id }, data: { strategy } }));

/** The loop's entry still open in any queue (a loop holds at most one place). */
export const openEntryOfLoop = (db: Db | Tx, loopId: string) =>
  db.landingEntry.findFirst({ where: { loopId, status: { in: [...OPEN_LANDING_STATUSES] } } });

/**
 * Adds an entry with its audit event, unless the loop already has an open one
 * (checked in the same transaction; on PostgreSQL two enqueues racing past the
 * check both insert, and the later one is removed again by the caller's re-read).
 */
export async function insertEntry(
  db: Db,
  entry: Prisma.LandingEntryUncheckedCreateInput,
  event: NewLoopEvent,
): Promise<{ entry: LandingEntryRow; created: boolean }> {
  return inTransaction(db, async (tx) => {
    const open = await openEntryOfLoop(tx, entry.loopId);
    if (open) return { entry: open, created: false };
    const made = await tx.landingEntry.create({ data: entry });
    await appendEvents(tx, [event]);
    return { entry: made, created: true };
  });
}

const queueOrder: Prisma.LandingEntryOrderByWithRelationInput[] = [{ createdAt: "asc" }, { id: "asc" }];

/** The open entries of a queue in landing order (an in-flight one first). */
export async function openEntries(db: Db | Tx, queueId: string): Promise<LandingEntryRow[]> {
  const rows = await db.landingEntry.findMany({
    where: { queueId, status: { in: [...OPEN_LANDING_STATUSES] } },
    orderBy: queueOrder,
  });
  const inFlight = rows.filter((r) => r.status !== "queued");
  return [...inFlight, ...rows.filter((r) => r.status === "queued")];
}

/** A queue's entries, newest first (its history), open ones included. */
export const queueHistory = (db: Db, queueId: string, take: number) =>
  db.landingEntry.findMany({ where: { queueId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take });

export const entriesOfLoop = (db: Db, loopId: string) =>
  db.landingEntry.findMany({ where: { loopId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: 50 });

export const listQueues = (db: Db) => db.landingQueue.findMany({ orderBy: [{ repo: "asc" }, { targetBranch: "asc" }] });

/**
 * Takes the queue's lease when nobody holds a live one: one compare-and-set,
 * so of several workers at once exactly one gets it.
 */
export async function claimQueue(db: Db, queueId: string, owner: string, now: Date, ttlMs: number): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    const claimed = await tx.landingQueue.updateMany({
      where: { id: queueId, OR: [{ leaseOwner: null }, { leaseExpiresAt: null }, { leaseExpiresAt: { lt: now } }] },
      data: { leaseOwner: owner, leaseExpiresAt: new Date(now.getTime() + ttlMs), version: { increment: 1 } },
    });
    return claimed.count === 1;
  });
}

/** Extends the lease while the lander works; false when it was lost (it must stop). */
export async function renewQueueLease(
  db: Db,
  queueId: string,
  owner: string,
  now: Date,
  ttlMs: number,
): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    const kept = await tx.landingQueue.updateMany({
      where: { id: queueId, leaseOwner: owner, leaseExpiresAt: { gt: now } },
      data: { leaseExpiresAt: new Date(now.getTime() + ttlMs) },
    });
    return kept.count === 1;
  });
}

export async function releaseQueue(db: Db, queueId: string, owner: string): Promise<void> {
  await inTransaction(db, (tx) =>
    tx.landingQueue.updateMany({
      where: { id: queueId, leaseOwner: owner },
      data: { leaseOwner: null, leaseExpiresAt: null },
    }),
  );
}

export class LandingLeaseLostError extends Error {
  constructor(queueId: string) {
    super(`the landing lease of queue ${queueId} was lost; another worker lands it now`);
    this.name = "LandingLeaseLostError";
  }
}

/**
 * Updates an entry (and appends its events) only while `owner` still holds the
 * queue's live lease: the check and the write are one transaction, fenced by
 * bumping the queue's version under the owner's name. Throws LandingLeaseLostError otherwise.
 */
export async function updateEntryFenced(
  db: Db,
  fence: { queueId: string; owner: string; now: Date },
  entryId: string,
  data: Prisma.LandingEntryUncheckedUpdateInput,
  events: NewLoopEvent[] = [],
): Promise<LandingEntryRow> {
  return inTransaction(db, async (tx) => {
    const held = await tx.landingQueue.updateMany({
      where: { id: fence.queueId, leaseOwner: fence.owner, leaseExpiresAt: { gt: fence.now } },
      data: { version: { increment: 1 } },
    });
    if (held.count !== 1) throw new LandingLeaseLostError(fence.queueId);
    const row = await tx.landingEntry.update({ where: { id: entryId }, data });
    await appendEvents(tx, events);
    return row;
  });
}

/**
 * An operator's change to an entry in one of `from` states (cancel, re-queue,
 * send back), with its event; null when the entry is no longer in such a state.
 * An in-flight entry is never changed this way: its lander owns it.
 */
export async function updateEntryIf(
  db: Db,
  entryId: string,
  from: readonly LandingStatus[],
  data: Prisma.LandingEntryUncheckedUpdateInput,
  events: NewLoopEvent[],
): Promise<LandingEntryRow | null> {
  return inTransaction(db, async (tx) => {
    const changed = await tx.landingEntry.updateMany({ where: { id: entryId, status: { in: [...from] } }, data });
    if (changed.count !== 1) return null;
    await appendEvents(tx, events);
    return tx.landingEntry.findUniqueOrThrow({ where: { id: entryId } });
  });
}

/** Queues with open entries and no live lease: what a sweep hands to landers. */
export async function dueQueues(db: Db, now: Date, limit = 50): Promise<string[]> {
  const rows = await db.landingQueue.findMany({
    where: {
      OR: [{ leaseOwner: null }, { leaseExpiresAt: null }, { leaseExpiresAt: { lt: now } }],
      entries: { some: { status: { in: [...OPEN_LANDING_STATUSES] } } },
    },
    select: { id: true },
    take: limit,
  });
  return rows.map((r) => r.id);
}

/** Loops sent back to work from entries closed since `since`, with the target they came from. */
export const sentBackSince = (db: Db, since: Date) =>
  db.landingEntry.findMany({
    where: { sentBackLoopId: { not: null }, finishedAt: { gt: since } },
    select: { sentBackLoopId: true, queue: { select: { targetBranch: true } } },
  });

/** Of `loopIds`, those that landed through the merge queue (a verified outcome: cost per verified task). */
export async function landedLoopIds(db: Db, loopIds: readonly string[]): Promise<Set<string>> {
  if (loopIds.length === 0) return new Set();
  const rows = await db.landingEntry.findMany({
    where: { loopId: { in: [...loopIds] }, status: "landed" },
    select: { loopId: true },
    distinct: ["loopId"],
  });
  return new Set(rows.map((r) => r.loopId));
}

export const loopHasLanding = async (db: Db, loopId: string) =>
  (await db.landingEntry.count({ where: { loopId } })) > 0;

/** What a lander needs of the loop it lands: its goal and stored definition. */
export const loopForLanding = (db: Db, loopId: string) =>
  db.loop.findUnique({ where: { id: loopId }, select: { id: true, goal: true, config: true } });

// Leases: at most one runtime owns a loop at a time. Every write a runtime
// makes is fenced by its lease owner id (unique per claim), so a runtime whose
// lease expired and was taken over can no longer write.
import type { Db } from "./client";
import { inTransaction } from "./tx";
import {
  claimNextLoopsOnPg,
  loadClaimedLoopOnPg,
  loopsWithPendingControlsOnPg,
  pgLean,
  renewLeasesOnPg,
} from "./pg-lean";
import { CLAIMED_COLUMNS_SQL, CLAIMED_SELECT, type ClaimedLoop } from "./claimed-loop";
import { sqliteLean } from "./sqlite-lean";

/** Statuses a runtime picks up right away (running only once its lease is free). */
export const RUNNABLE_STATUSES = ["queued", "running"] as const;
/** Statuses a runtime picks up once `nextRunAt` has passed (pacing, throttle, approval deadline). */
export const SCHEDULED_STATUSES = ["waiting", "waiting_for_limit", "awaiting_approval"] as const;

export class LeaseLostError extends Error {
  constructor(readonly loopId: string) {
    super(`lease on loop ${loopId} was lost`);
    this.name = "LeaseLostError";
  }
}

/** Statuses in which a loop may hold operator requests a runtime still has to apply. */
const CONTROLLABLE_STATUSES = [...RUNNABLE_STATUSES, ...SCHEDULED_STATUSES, "paused", "needs_attention"];

const claimableWhere = (now: Date) => ({
  AND: [
    { OR: [{ leaseOwner: null }, { leaseExpiresAt: { lt: now } }] },
    {
      OR: [
        { status: { in: [...RUNNABLE_STATUSES] } },
        { status: { in: [...SCHEDULED_STATUSES] }, nextRunAt: { lte: now } },
        // A runtime died holding requests it had not applied yet (even on a paused loop).
        { status: { in: CONTROLLABLE_STATUSES }, controls: { some: { status: "pending" } } },
      ],
    },
  ],
});

export type { ClaimedLoop };

const sqlList = (values: readonly string[]) => values.map((v) => `'${v}'`).join(", ");

/**
 * claimableWhere as one compare-and-set statement on SQLite (dates are compared
 * as the adapter's iso8601 text, as Prisma does), returning the claimed row.
 */
const CLAIM_SQLITE = `UPDATE "Loop" SET "leaseOwner" = @owner, "leaseExpiresAt" = @expires,
    "version" = "version" + 1, "updatedAt" = @updatedAt
  WHERE "id" = @id AND ("leaseOwner" IS NULL OR "leaseExpiresAt" < @now)
    AND ("status" IN (${sqlList(RUNNABLE_STATUSES)})
      OR ("status" IN (${sqlList(SCHEDULED_STATUSES)}) AND "nextRunAt" <= @now)
      OR ("status" IN (${sqlList(CONTROLLABLE_STATUSES)})
        AND EXISTS (SELECT 1 FROM "ControlRequest" c WHERE c."loopId" = "Loop"."id" AND c."status" = 'pending')))
  RETURNING ${CLAIMED_COLUMNS_SQL}`;

/** Claims one loop if it is runnable and nobody holds a live lease on it. */
// Writes below run in explicit transactions even when single statements: the
// SQLite adapter shares one connection, and only transactions wait for each
// other; a bare statement would otherwise land inside another open one. (The
// lean path's statements take the same connection lock instead.)

export async function claimLoop(
  db: Db,
  loopId: string,
  owner: string,
  now: Date,
  ttlMs: number,
): Promise<ClaimedLoop | null> {
  const lean = sqliteLean(db);
  if (lean) {
    // One statement, so it commits on its own: a Prisma claim costs an interactive transaction of four.
    // The iso8601 text the app's adapter binds dates as (encodeValue; imported from there, this file would be in a cycle).
    const date = (value: Date) => value.toISOString().replace("Z", "+00:00");
    const params = {
      id: loopId,
      owner,
      now: date(now),
      expires: date(new Date(now.getTime() + ttlMs)),
      // What Prisma's @updatedAt writes: the wall clock, not the engine's.
      updatedAt: date(new Date()),
    };
    const row = await lean.run(
      (prepare) => prepare(CLAIM_SQLITE).get(params) as (Omit<ClaimedLoop, "config"> & { config: string }) | undefined,
    );
    return row ? { ...row, config: JSON.parse(row.config) as ClaimedLoop["config"] } : null;
  }
  return inTransaction(db, async (tx) => {
    const claimed = await tx.loop.updateMany({
      where: { id: loopId, ...claimableWhere(now) },
      data: { leaseOwner: owner, leaseExpiresAt: new Date(now.getTime() + ttlMs), version: { increment: 1 } },
    });
    return claimed.count === 1 ? tx.loop.findUnique({ where: { id: loopId }, select: CLAIMED_SELECT }) : null;
  });
}

/**
 * Claims up to `limit` runnable loops for a worker. PostgreSQL skips rows
 * another worker is claiming (FOR UPDATE SKIP LOCKED); SQLite has a single
 * writer, so a compare-and-set per candidate is enough.
 */
export async function claimNextLoops(
  db: Db,
  kind: "sqlite" | "postgresql",
  owner: string,
  now: Date,
  ttlMs: number,
  limit: number,
): Promise<string[]> {
  const expires = new Date(now.getTime() + ttlMs);
  if (kind === "postgresql") {
    const lean = pgLean(db);
    if (lean) return claimNextLoopsOnPg(lean, owner, now, expires, limit);
    const rows = await db.$queryRawUnsafe<{ id: string }[]>(
      `UPDATE "Loop" SET "leaseOwner" = $1, "leaseExpiresAt" = $2, "version" = "version" + 1
       WHERE "id" IN (
         SELECT "id" FROM "Loop"
         WHERE ("leaseOwner" IS NULL OR "leaseExpiresAt" < $3)
           AND ("status" IN ('queued', 'running')
                OR ("status" IN ('waiting', 'waiting_for_limit', 'awaiting_approval') AND "nextRunAt" <= $3)
                OR ("status" IN ('queued', 'running', 'waiting', 'waiting_for_limit', 'awaiting_approval',
                                 'paused', 'needs_attention')
                    AND EXISTS (SELECT 1 FROM "ControlRequest" c
                                WHERE c."loopId" = "Loop"."id" AND c."status" = 'pending')))
         ORDER BY "nextRunAt" ASC NULLS FIRST, "updatedAt" ASC
         LIMIT $4
         FOR UPDATE SKIP LOCKED)
       RETURNING "id"`,
      owner,
      expires,
      now,
      limit,
    );
    return rows.map((r) => r.id);
  }
  const candidates = await db.loop.findMany({
    where: claimableWhere(now),
    select: { id: true },
    orderBy: [{ nextRunAt: "asc" }, { updatedAt: "asc" }],
    take: limit,
  });
  return inTransaction(db, async (tx) => {
    const claimed: string[] = [];
    for (const { id } of candidates) {
      const done = await tx.loop.updateMany({
        where: { id, ...claimableWhere(now) },
        data: { leaseOwner: owner, leaseExpiresAt: expires, version: { increment: 1 } },
      });
      if (done.count === 1) claimed.push(id);
    }
    return claimed;
  });
}

/** The loop a caller already claimed in a batch, if it still holds the lease. */
export function loadClaimedLoop(db: Db, loopId: string, owner: string): Promise<ClaimedLoop | null> {
  const pg = pgLean(db);
  if (pg) return loadClaimedLoopOnPg(pg, loopId, owner);
  return db.loop.findFirst({ where: { id: loopId, leaseOwner: owner }, select: CLAIMED_SELECT });
}

/** A lease a runtime holds: the loop and the owner id of the claim. */
export interface HeldLease {
  loopId: string;
  owner: string;
}

/** SQLite: leases renewed per statement, well under its parameter limit. */
const RENEW_CHUNK = 500;

/**
 * PostgreSQL renews in two passes that never wait while holding a loop row,
 * so they cannot be part of a deadlock with grouped step batches (which lock
 * several rows, in id order; PgStepDriver) nor make batches queue behind a
 * renewal that waits for another batch. First one statement for all leases
 * that skips rows locked right now (a step of ours being committed, mostly);
 * then each lease it did not renew, alone: a single-row update holds nothing
 * while it waits for that row. A lost lease is one neither pass renewed.
 */
const RENEW_PG_UNLOCKED = `UPDATE "Loop" SET "leaseExpiresAt" = $1, "lastHeartbeatAt" = $2
  WHERE "id" IN (SELECT "id" FROM "Loop" WHERE "id" = ANY($3::text[]) AND "leaseOwner" = ANY($4::text[])
                 ORDER BY "id" FOR NO KEY UPDATE SKIP LOCKED)
  RETURNING "id", "leaseOwner"`;
const RENEW_PG_ONE = `UPDATE "Loop" SET "leaseExpiresAt" = $1, "lastHeartbeatAt" = $2
  WHERE "id" = $3 AND "leaseOwner" = $4 RETURNING "id", "leaseOwner"`;

type RenewedRow = { id: string; leaseOwner: string | null };

async function renewOnPostgres(db: Db, leases: readonly HeldLease[], expires: Date, now: Date) {
  const lean = pgLean(db);
  if (lean) return renewLeasesOnPg(lean, leases, expires, now);
  const ids = [...new Set(leases.map((l) => l.loopId))];
  const owners = [...new Set(leases.map((l) => l.owner))];
  const rows = await db.$queryRawUnsafe<RenewedRow[]>(RENEW_PG_UNLOCKED, expires, now, ids, owners);
  const renewed = new Set(rows.map((r) => r.id));
  const rest = leases.filter((l) => !renewed.has(l.loopId));
  const more = await Promise.all(
    rest.map((l) => db.$queryRawUnsafe<RenewedRow[]>(RENEW_PG_ONE, expires, now, l.loopId, l.owner)),
  );
  return [...rows, ...more.flat()];
}

/**
 * Renews a whole process's leases in one statement (SQLite: one per chunk, in
 * one transaction; PostgreSQL: see above) and reports, in the same tick, which
 * of them have pending operator requests: the heartbeat that keeps leases
 * alive is also how slices learn of controls, instead of every slice polling
 * on its own.
 *
 * The statement matches `id IN (...) AND leaseOwner IN (...)`; a row comes back
 * with its owner, and a lease counts as kept only when that owner is the one
 * given for its loop. (A row can only match with another of our own live owners
 * when this process claimed it again; that claim's holder renews it rightly.)
 */
export async function renewLeases<L extends HeldLease>(
  db: Db,
  kind: "sqlite" | "postgresql",
  leases: readonly L[],
  now: Date,
  ttlMs: number,
): Promise<{ lost: L[]; pendingControls: Set<string> }> {
  const pendingControls = new Set<string>();
  if (leases.length === 0) return { lost: [], pendingControls };
  const expires = new Date(now.getTime() + ttlMs);
  const rows =
    kind === "postgresql"
      ? await renewOnPostgres(db, leases, expires, now)
      : await inTransaction(db, async (tx) => {
          const out: RenewedRow[] = [];
          for (let i = 0; i < leases.length; i += RENEW_CHUNK) {
            const chunk = leases.slice(i, i + RENEW_CHUNK);
            out.push(
              ...(await tx.loop.updateManyAndReturn({
                where: {
                  id: { in: [...new Set(chunk.map((l) => l.loopId))] },
                  leaseOwner: { in: [...new Set(chunk.map((l) => l.owner))] },
                },
                data: { leaseExpiresAt: expires, lastHeartbeatAt: now },
                select: { id: true, leaseOwner: true },
              })),
            );
          }
          return out;
        });
  const ownerOf = new Map(rows.map((r) => [r.id, r.leaseOwner]));
  const lost = leases.filter((l) => ownerOf.get(l.loopId) !== l.owner);
  const keptIds = [...new Set(leases.filter((l) => ownerOf.get(l.loopId) === l.owner).map((l) => l.loopId))];
  const lean = kind === "postgresql" ? pgLean(db) : null;
  if (lean && keptIds.length)
    for (const id of await loopsWithPendingControlsOnPg(lean, keptIds)) pendingControls.add(id);
  for (let i = 0; !lean && i < keptIds.length; i += RENEW_CHUNK) {
    const pending = await db.controlRequest.findMany({
      where: { loopId: { in: keptIds.slice(i, i + RENEW_CHUNK) }, status: "pending" },
      select: { loopId: true },
    });
    for (const p of pending) pendingControls.add(p.loopId);
  }
  return { lost, pendingControls };
}

/** Ids of loops that need a runtime now: runnable with no live lease, or due. */
export async function findDueLoops(db: Db, now: Date, limit: number): Promise<string[]> {
  const rows = await db.loop.findMany({ where: claimableWhere(now), select: { id: true }, take: limit });
  return rows.map((r) => r.id);
}

/**
 * The fence an agent launch passes through (issue 32): in one statement, the
 * attempt about to run must still be the one in flight, under this claim
 * (owner), on a lease that has not expired; and it renews the lease from now,
 * so the launched agent has a whole TTL before anyone may claim. A runtime
 * whose lease expired (a stalled heartbeat under load) is refused here even
 * when nobody has claimed the loop yet, so it can never launch beside the
 * agent of the runtime that claims next. Returns whether the launch may go.
 */
export async function fenceLaunch(
  db: Db,
  loopId: string,
  owner: string,
  attempt: { number: number; attempt: number },
  now: Date,
  ttlMs: number,
): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    const updated = await tx.loop.updateMany({
      where: {
        id: loopId,
        leaseOwner: owner,
        leaseExpiresAt: { gt: now },
        inflightIteration: attempt.number,
        inflightAttempt: attempt.attempt,
      },
      data: { leaseExpiresAt: new Date(now.getTime() + ttlMs), lastHeartbeatAt: now },
    });
    return updated.count === 1;
  });
}

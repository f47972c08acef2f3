// Single statements a running slice issues at every safe point or claim, on
// PostgreSQL: named prepared statements on the lean step commit's own pg pool
// (step-commit-drivers.ts), not Prisma, whose query costs about a millisecond
// of CPU in the worker (sqlite-lean.ts is SQLite's counterpart). Each runs on
// its own, committed at once, exactly as the Prisma query it replaces did.
import type { Db } from "./client";
import { CLAIMED_COLUMNS_SQL, type ClaimedLoop } from "./claimed-loop";
import { pgStepPool, type PgStepPool } from "./pg-step-pool";

export type PgLean = PgStepPool;

/** The lean path for this client, or null (SQLite, or a client opened without the lean path). */
export function pgLean(db: Db): PgLean | null {
  return pgStepPool(db);
}

/** A timestamp parameter: an instant (ISO text) stored as the UTC wall time Prisma's TIMESTAMP(3) columns hold. */
const AT = `(?::timestamptz AT TIME ZONE 'UTC')`;

/**
 * markInflight in one statement: the attempt is computed from the row's old
 * values (every SET expression sees them), so no read and no transaction.
 */
const MARK_INFLIGHT_SQL = `UPDATE "Loop" SET
  "inflightAttempt" = CASE WHEN "inflightIteration" = ?::int THEN COALESCE("inflightAttempt", 1) ELSE 1 END,
  "startedAt" = CASE WHEN ?::int = 1 AND ("inflightIteration" IS DISTINCT FROM ?::int OR COALESCE("inflightAttempt", 1) = 1)
    THEN ${AT} ELSE COALESCE("startedAt", ${AT}) END,
  "inflightIteration" = ?::int, "inflightStartedAt" = ${AT}, "inflightAgent" = NULL,
  "lastActivityAt" = ${AT}, "status" = 'running', "nextRunAt" = NULL, "updatedAt" = ${AT}
  WHERE "id" = ? AND "leaseOwner" = ? RETURNING "inflightAttempt"`;

/** The attempt now in flight, or null when the lease is lost. */
export async function markInflightOnPg(lean: PgLean, loopId: string, owner: string, number: number, now: Date) {
  const at = now.toISOString();
  const { rows } = await lean.run<{ inflightAttempt: number }>({
    sql: MARK_INFLIGHT_SQL,
    params: [number, number, number, at, at, number, at, at, at, loopId, owner],
  });
  return rows[0]?.inflightAttempt ?? null;
}

/** A checkpoint's stored form by id. */
export async function checkpointByIdOnPg(lean: PgLean, id: string) {
  const { rows } = await lean.run<{ id: string; loopId: string; state: string; sha256: string }>({
    sql: `SELECT "id", "loopId", "state", "sha256" FROM "Checkpoint" WHERE "id" = ?`,
    params: [id],
  });
  return rows[0] ?? null;
}

/** The loop a worker claimed, if it still holds the lease: those columns as Prisma's findFirst returns them. */
export async function loadClaimedLoopOnPg(lean: PgLean, loopId: string, owner: string): Promise<ClaimedLoop | null> {
  const { rows } = await lean.run<ClaimedLoop>({
    sql: `SELECT ${CLAIMED_COLUMNS_SQL} FROM "Loop" WHERE "id" = ? AND "leaseOwner" = ?`,
    params: [loopId, owner],
  });
  return rows[0] ?? null;
}

/** citedByCheckpoint's two reads. */
export async function citedByCheckpointOnPg(
  lean: PgLean,
  loopId: string,
  cites: { parts: string[]; outputRow: string | null },
) {
  const [parts, output] = await Promise.all([
    cites.parts.length
      ? lean.run<{ hash: string; body: string }>({
          sql: `SELECT "hash", "body" FROM "CheckpointPart" WHERE "loopId" = ? AND "hash" = ANY(?::text[])`,
          params: [loopId, cites.parts],
        })
      : { rows: [] },
    cites.outputRow
      ? lean.run<{ output: string }>({
          sql: `SELECT "output" FROM "Iteration" WHERE "id" = ?`,
          params: [cites.outputRow],
        })
      : { rows: [] },
  ]);
  return { parts: new Map(parts.rows.map((p) => [p.hash, p.body])), output: output.rows[0]?.output };
}

/** claimNextLoops on PostgreSQL: the same statement (see loop-lease.repo.ts), prepared. */
const CLAIM_NEXT_SQL = `UPDATE "Loop" SET "leaseOwner" = ?, "leaseExpiresAt" = ${AT}, "version" = "version" + 1
  WHERE "id" IN (
    SELECT "id" FROM "Loop"
    WHERE ("leaseOwner" IS NULL OR "leaseExpiresAt" < ${AT})
      AND ("status" IN ('queued', 'running')
           OR ("status" IN ('waiting', 'waiting_for_limit', 'awaiting_approval') AND "nextRunAt" <= ${AT})
           OR ("status" IN ('queued', 'running', 'waiting', 'waiting_for_limit', 'awaiting_approval',
                            'paused', 'needs_attention')
               AND EXISTS (SELECT 1 FROM "ControlRequest" c
                           WHERE c."loopId" = "Loop"."id" AND c."status" = 'pending')))
    ORDER BY "nextRunAt" ASC NULLS FIRST, "updatedAt" ASC
    LIMIT ?::int
    FOR UPDATE SKIP LOCKED)
  RETURNING "id"`;

export async function claimNextLoopsOnPg(lean: PgLean, owner: string, now: Date, expires: Date, limit: number) {
  const at = now.toISOString();
  const { rows } = await lean.run<{ id: string }>({
    sql: CLAIM_NEXT_SQL,
    params: [owner, expires.toISOString(), at, at, limit],
  });
  return rows.map((r) => r.id);
}

/** The lease renewal's two passes (see renewOnPostgres in loop-lease.repo.ts for why two), prepared. */
const RENEW_UNLOCKED_SQL = `UPDATE "Loop" SET "leaseExpiresAt" = ${AT}, "lastHeartbeatAt" = ${AT}
  WHERE "id" IN (SELECT "id" FROM "Loop" WHERE "id" = ANY(?::text[]) AND "leaseOwner" = ANY(?::text[])
                 ORDER BY "id" FOR NO KEY UPDATE SKIP LOCKED)
  RETURNING "id", "leaseOwner"`;
const RENEW_ONE_SQL = `UPDATE "Loop" SET "leaseExpiresAt" = ${AT}, "lastHeartbeatAt" = ${AT}
  WHERE "id" = ? AND "leaseOwner" = ? RETURNING "id", "leaseOwner"`;

type RenewedRow = { id: string; leaseOwner: string | null };

export async function renewLeasesOnPg(
  lean: PgLean,
  leases: readonly { loopId: string; owner: string }[],
  expires: Date,
  now: Date,
): Promise<RenewedRow[]> {
  const until = expires.toISOString();
  const at = now.toISOString();
  const ids = [...new Set(leases.map((l) => l.loopId))];
  const owners = [...new Set(leases.map((l) => l.owner))];
  const { rows } = await lean.run<RenewedRow>({ sql: RENEW_UNLOCKED_SQL, params: [until, at, ids, owners] });
  const renewed = new Set(rows.map((r) => r.id));
  const rest = leases.filter((l) => !renewed.has(l.loopId));
  const more = await Promise.all(
    rest.map((l) => lean.run<RenewedRow>({ sql: RENEW_ONE_SQL, params: [until, at, l.loopId, l.owner] })),
  );
  return [...rows, ...more.flatMap((m) => m.rows)];
}

/** Which of these loops have operator requests pending. */
export async function loopsWithPendingControlsOnPg(lean: PgLean, loopIds: string[]): Promise<string[]> {
  const { rows } = await lean.run<{ loopId: string }>({
    sql: `SELECT DISTINCT "loopId" FROM "ControlRequest" WHERE "loopId" = ANY(?::text[]) AND "status" = 'pending'`,
    params: [loopIds],
  });
  return rows.map((r) => r.loopId);
}

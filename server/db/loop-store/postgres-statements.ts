// The PostgreSQL loop store's single statements, `?` placeholders (the pool
// numbers them). Timestamps are bound as ISO instants and stored as the UTC
// wall time the `timestamp(3)` columns hold.
import { CLAIMED_COLUMNS_SQL } from "../claimed-loop";

const AT = `(?::timestamptz AT TIME ZONE 'UTC')`;

/**
 * markInflight in one statement: the attempt is computed from the row's old
 * values (every SET expression sees them), so no read and no transaction.
 */
export const MARK_INFLIGHT = `UPDATE "Loop" SET
  "inflightAttempt" = CASE WHEN "inflightIteration" = ?::int THEN COALESCE("inflightAttempt", 1) ELSE 1 END,
  "startedAt" = CASE WHEN ?::int = 1 AND ("inflightIteration" IS DISTINCT FROM ?::int OR COALESCE("inflightAttempt", 1) = 1)
    THEN ${AT} ELSE COALESCE("startedAt", ${AT}) END,
  "inflightIteration" = ?::int, "inflightStartedAt" = ${AT}, "inflightAgent" = NULL,
  "lastActivityAt" = ${AT}, "status" = 'running', "nextRunAt" = NULL, "updatedAt" = ${AT}
  WHERE "id" = ? AND "leaseOwner" = ? RETURNING "inflightAttempt"`;

export const CHECKPOINT_BY_ID = `SELECT "id", "loopId", "state", "sha256" FROM "Checkpoint" WHERE "id" = ?`;

/** The claimed loop's columns as Prisma's findFirst returns them (jsonb arrives parsed). */
export const LOAD_CLAIMED = `SELECT ${CLAIMED_COLUMNS_SQL} FROM "Loop" WHERE "id" = ? AND "leaseOwner" = ?`;

export const CITED_PARTS = `SELECT "hash", "body" FROM "CheckpointPart" WHERE "loopId" = ? AND "hash" = ANY(?::text[])`;
export const CITED_OUTPUT = `SELECT "output" FROM "Iteration" WHERE "id" = ?`;

/** claimableWhere (loop-lease.repo.ts) for a batch, skipping rows another worker is claiming. */
export const CLAIM_NEXT = `UPDATE "Loop" SET "leaseOwner" = ?, "leaseExpiresAt" = ${AT}, "version" = "version" + 1
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

/** The lease renewal's two passes (PostgresLoopStore.renewLeases says why two). */
export const RENEW_UNLOCKED = `UPDATE "Loop" SET "leaseExpiresAt" = ${AT}, "lastHeartbeatAt" = ${AT}
  WHERE "id" IN (SELECT "id" FROM "Loop" WHERE "id" = ANY(?::text[]) AND "leaseOwner" = ANY(?::text[])
                 ORDER BY "id" FOR NO KEY UPDATE SKIP LOCKED)
  RETURNING "id", "leaseOwner"`;
export const RENEW_ONE = `UPDATE "Loop" SET "leaseExpiresAt" = ${AT}, "lastHeartbeatAt" = ${AT}
  WHERE "id" = ? AND "leaseOwner" = ? RETURNING "id", "leaseOwner"`;

/** Which of these loops have operator requests pending. */
export const PENDING_OF = `SELECT DISTINCT "loopId" FROM "ControlRequest" WHERE "loopId" = ANY(?::text[]) AND "status" = 'pending'`;

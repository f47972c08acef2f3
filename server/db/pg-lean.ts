// Single statements a running slice issues at every safe point or claim, on
// PostgreSQL: named prepared statements on the lean step commit's own pg pool
// (step-commit-drivers.ts), not Prisma, whose query costs about a millisecond
// of CPU in the worker (sqlite-lean.ts is SQLite's counterpart). Each runs on
// its own, committed at once, exactly as the Prisma query it replaces did.
import type { Db } from "./client";
import { LeaseLostError } from "./loop-lease.repo";
import { encodeValue, type Statement } from "./step-commit-sql";
import { pgStepDriver } from "./step-commit";

export interface PgLean {
  run<R extends Record<string, unknown>>(statement: Statement): Promise<{ changes: number; rows: R[] }>;
}

/** The lean path for this client, or null (SQLite, or a client opened without the lean step commit). */
export function pgLean(db: Db): PgLean | null {
  return pgStepDriver(db) ?? null;
}

/**
 * markInflight in one statement: the attempt is computed from the row's old
 * values (every SET expression sees them), so no read and no transaction.
 */
const MARK_INFLIGHT_SQL = `UPDATE "Loop" SET
  "inflightAttempt" = CASE WHEN "inflightIteration" = ?::int THEN COALESCE("inflightAttempt", 1) ELSE 1 END,
  "startedAt" = CASE WHEN ?::int = 1 AND ("inflightIteration" IS DISTINCT FROM ?::int OR COALESCE("inflightAttempt", 1) = 1)
    THEN ?::timestamp(3) ELSE "startedAt" END,
  "inflightIteration" = ?::int, "inflightStartedAt" = ?::timestamp(3), "inflightAgent" = NULL,
  "lastActivityAt" = ?::timestamp(3), "status" = 'running', "nextRunAt" = NULL, "updatedAt" = ?::timestamp(3)
  WHERE "id" = ? AND "leaseOwner" = ? RETURNING "inflightAttempt"`;

export async function markInflightOnPg(lean: PgLean, loopId: string, owner: string, number: number, now: Date) {
  const at = encodeValue("postgresql", "Loop", "inflightStartedAt", now);
  const { rows } = await lean.run<{ inflightAttempt: number }>({
    sql: MARK_INFLIGHT_SQL,
    params: [number, number, number, at, number, at, at, at, loopId, owner],
  });
  if (!rows[0]) throw new LeaseLostError(loopId);
  return rows[0].inflightAttempt;
}

/** A checkpoint's stored form by id. */
export async function checkpointByIdOnPg(lean: PgLean, id: string) {
  const { rows } = await lean.run<{ id: string; loopId: string; state: string; sha256: string }>({
    sql: `SELECT "id", "loopId", "state", "sha256" FROM "Checkpoint" WHERE "id" = ?`,
    params: [id],
  });
  return rows[0] ?? null;
}

// A running slice's read of its loop's pending requests, at every safe point
// that did not get them from the step commit: on SQLite one prepared statement
// (sqlite-lean.ts), on PostgreSQL one named prepared statement (pg-lean.ts);
// Prisma only for a client opened without the lean path.
import type { Db } from "./client";
import { pendingControlRequests } from "./controls.repo";
import { pgLean } from "./pg-lean";
import { sqliteLean } from "./sqlite-lean";
import { decodePendingControls, pendingControlsStatement } from "./step-commit-sql";
import type { PendingControl } from "./step-write";

/** Pending requests of one loop, oldest first. */
export async function readPendingControls(db: Db, loopId: string): Promise<PendingControl[]> {
  const lean = sqliteLean(db);
  if (!lean) {
    const pg = pgLean(db);
    if (!pg) return pendingControlRequests(db, loopId);
    return decodePendingControls("postgresql", (await pg.run(pendingControlsStatement("postgresql", loopId))).rows);
  }
  const { sql, params } = pendingControlsStatement("sqlite", loopId);
  const rows = await lean.run((prepare) => prepare(sql).all(...params) as Record<string, unknown>[]);
  return decodePendingControls("sqlite", rows);
}

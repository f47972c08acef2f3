// What a runtime reads of the loop it claimed (the rest is in its checkpoint):
// one column list for Prisma's select (loop-lease.repo.ts), SQLite's claim
// statement (loop-store/sqlite-loop-store.ts) and PostgreSQL's (loop-store/postgres-statements.ts).
import type { Loop } from "./generated/sqlite/client";

const COLUMNS = ["id", "goal", "agentKind", "config", "checkpointId", "inflightIteration"] as const;

export type ClaimedLoop = Pick<Loop, (typeof COLUMNS)[number]>;

/** Prisma's select for those columns. */
export const CLAIMED_SELECT = Object.fromEntries(COLUMNS.map((c) => [c, true])) as {
  [K in (typeof COLUMNS)[number]]: true;
};

/** The same columns, quoted, for a SELECT or RETURNING list. */
export const CLAIMED_COLUMNS_SQL = COLUMNS.map((c) => `"${c}"`).join(", ");

// Recognises Prisma's known request errors without leaking Prisma types upward,
// and sorts storage failures into passing faults and permanent ones.
import { Prisma } from "./generated/sqlite/client";

const codeOf = (error: unknown) => (error instanceof Prisma.PrismaClientKnownRequestError ? error.code : undefined);

// The same violation raised by the drivers themselves (the lean step commit).
const UNIQUE_DRIVER_CODES = new Set(["SQLITE_CONSTRAINT_UNIQUE", "SQLITE_CONSTRAINT_PRIMARYKEY", "23505"]);

/** Unique constraint violation (P2002, or the driver's own code) or a failed compare-and-set write. */
export const isStorageConflict = (error: unknown) =>
  codeOf(error) === "P2002" ||
  (!!error && typeof error === "object" && UNIQUE_DRIVER_CODES.has(String((error as { code?: unknown }).code)));
/** An update or delete found no record (P2025). */
export const isStorageNotFound = (error: unknown) => codeOf(error) === "P2025";

// Prisma codes for an unreachable, closed, timed-out or busy database, and for
// write conflicts a retry resolves.
const TRANSIENT_PRISMA = new Set(["P1001", "P1002", "P1008", "P1017", "P1018", "P2024", "P2028", "P2034"]);
// PostgreSQL SQLSTATE: connection exceptions (08), operator intervention such as
// an admin shutdown or a restart (57P0x), insufficient resources (53) and
// serialization failures/deadlocks (40001, 40P01).
const TRANSIENT_SQLSTATE = /^(08...|57P0[1-4]|53...|40001|40P01)$/;
const TRANSIENT_SOCKET = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EAI_AGAIN"]);
// Pool pressure and restarts also surface without a code: pg-pool's "timeout
// exceeded when trying to connect" (no free connection while the server is
// down or every client is busy) and Prisma's "Unable to start a transaction in
// the given time" (its transaction could not get a connection in time).
const TRANSIENT_MESSAGE =
  /can't reach database server|connection terminated|encountered a connection error|not queryable|terminating connection|server closed the connection|server has closed the connection|connection (?:is )?closed|database is locked|SQLITE_BUSY|timed out fetching a new connection|timeout exceeded when trying to connect|unable to start a transaction in the given time|the database system is (?:starting up|shutting down|in recovery mode)|ECONNREFUSED|ECONNRESET/i;

/** Codes and messages along an error's cause chain (Prisma wraps driver errors). */
function facts(error: unknown): { codes: string[]; messages: string[] } {
  const codes: string[] = [];
  const messages: string[] = [];
  const seen = new Set<unknown>();
  const visit = (value: unknown, depth: number) => {
    if (!value || typeof value !== "object" || seen.has(value) || depth > 6) return;
    seen.add(value);
    const v = value as Record<string, unknown>;
    for (const key of ["code", "originalCode", "errno"]) if (typeof v[key] === "string") codes.push(v[key] as string);
    if (typeof v.message === "string") messages.push(v.message);
    if (typeof v.originalMessage === "string") messages.push(v.originalMessage);
    visit(v.cause, depth + 1);
    visit(v.meta, depth + 1);
    visit(v.driverAdapterError, depth + 1);
  };
  visit(error, 0);
  return { codes, messages };
}

/**
 * A storage failure that retrying later may resolve: the database is
 * unreachable, restarting, shutting connections down, busy, or a write
 * conflicted. Only failures that are not transient may fail a loop.
 */
export function isTransientStorageError(error: unknown): boolean {
  const { codes, messages } = facts(error);
  if (codes.some((c) => TRANSIENT_PRISMA.has(c) || TRANSIENT_SQLSTATE.test(c) || TRANSIENT_SOCKET.has(c))) return true;
  return messages.some((m) => TRANSIENT_MESSAGE.test(m));
}

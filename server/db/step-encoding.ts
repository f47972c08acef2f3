// How each database stores the values the lean statements bind and read back
// (step-commit-sql.ts, the loop stores). A property of the schema on each
// database, not of any client library: step-commit.db.test.ts checks, on both,
// that rows written with it read back through Prisma as Prisma's own writes do.

export interface StepEncoding {
  /** A timestamp parameter. */
  date(value: Date): unknown;
  /** A boolean parameter. */
  bool(value: boolean): unknown;
  /** A Json column's value as the driver returns it, parsed. */
  json(value: unknown): unknown;
  /** Selects "createdAt" so that decodeTimestamp reads the instant it holds. */
  createdAtColumn: string;
}

/**
 * SQLite has no date type: the schema keeps instants as ISO-8601 text with an
 * explicit "+00:00" (the app opens its adapter with timestampFormat "iso8601").
 * One format for every writer, because statements compare dates as text
 * ("leaseExpiresAt" < now). Booleans are 0/1, Json is text.
 */
export const SQLITE_ENCODING: StepEncoding = {
  date: (value) => value.toISOString().replace("Z", "+00:00"),
  bool: (value) => (value ? 1 : 0),
  json: (value) => (typeof value === "string" ? (JSON.parse(value) as unknown) : (value ?? null)),
  createdAtColumn: `"createdAt"`,
};

/**
 * PostgreSQL's columns are `timestamp(3)` without time zone, holding UTC wall
 * time: an ISO instant in UTC is that wall time (the zone of a literal is
 * ignored for this type). jsonb arrives parsed. pg would hand a `timestamp`
 * back in the process's time zone, so "createdAt" is read as UTC text.
 */
export const POSTGRES_ENCODING: StepEncoding = {
  date: (value) => value.toISOString(),
  bool: (value) => value,
  json: (value) => value ?? null,
  createdAtColumn: `to_char("createdAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt"`,
};

/** A stored timestamp as text with its zone, SQL's zone-less UTC text, or a Date. */
export function decodeTimestamp(value: unknown): Date {
  if (value instanceof Date || typeof value === "number") return new Date(value);
  const text = String(value);
  return new Date(/(?:[zZ]|[+-]\d\d:?\d\d)$/.test(text) ? text : `${text.replace(" ", "T")}Z`);
}

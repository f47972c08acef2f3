// Iteration reads: the light series the charts need, and full rows by page.
import type { Db } from "./prisma-client";
import { Prisma } from "./generated/sqlite/client";

// The largest INTEGER both providers compare a bound parameter with.
const NO_UPPER_BOUND = 2_147_483_647;

const SERIES_SELECT = {
  loopId: true,
  number: true,
  attempt: true,
  status: true,
  scores: true,
  meanScore: true,
  costUsd: true,
  tokensIn: true,
  tokensOut: true,
  tokensCache: true,
  durationMs: true,
  health: true,
  handoffTrigger: true,
  claimedDone: true,
  claimMismatch: true,
  evidenceComplete: true,
  finishedAt: true,
} as const;

/**
 * Whose iterations a reader sees: one loop, or a fork's lineage, each segment
 * one loop's iterations numbered in (after, upTo]. A fork continues its
 * parent's numbering, so the segments never overlap.
 */
export interface IterationSegment {
  loopId: string;
  after: number;
  upTo: number | null;
}
export type IterationScope = string | readonly IterationSegment[];

const segmentsOf = (scope: IterationScope): readonly IterationSegment[] =>
  typeof scope === "string" ? [{ loopId: scope, after: 0, upTo: null }] : scope;

function scopeWhere(scope: IterationScope, number: { lt?: number } = {}) {
  const segments = segmentsOf(scope);
  // A window outside every segment: a filter nothing matches (an empty OR would match everything).
  if (segments.length === 0) return { loopId: "", number: { lt: 0 } };
  const parts = segments.map((s) => ({
    loopId: s.loopId,
    number: { gt: s.after, ...(s.upTo !== null ? { lte: s.upTo } : {}), ...number },
  }));
  return parts.length === 1 ? parts[0]! : { OR: parts };
}

/** Every attempt of every iteration, oldest first: for loops short enough to chart point by point. */
export function iterationSeries(db: Db, scope: IterationScope) {
  return db.iteration.findMany({
    where: scopeWhere(scope),
    orderBy: [{ number: "asc" }, { attempt: "asc" }],
    select: SERIES_SELECT,
  });
}

/** The series rows of the given iteration numbers (every attempt of each). */
export function iterationSeriesAt(db: Db, scope: IterationScope, numbers: number[]) {
  return db.iteration.findMany({
    where: {
      OR: segmentsOf(scope).map((s) => ({
        loopId: s.loopId,
        number: { in: numbers.filter((n) => n > s.after && (s.upTo === null || n <= s.upTo)) },
      })),
    },
    orderBy: [{ number: "asc" }, { attempt: "asc" }],
    select: SERIES_SELECT,
  });
}

/** How many stored runs (attempts) of a loop ended in each status: an interrupted run counts as interrupted. */
export async function iterationStatusCounts(db: Db, loopId: string): Promise<Record<string, number>> {
  const groups = await db.iteration.groupBy({ by: ["status"], where: { loopId }, _count: { _all: true } });
  return Object.fromEntries(groups.map((g) => [g.status, g._count._all]));
}

/**
 * The first and last iteration numbers in scope (null when it holds none), and the last one's newest
 * attempt: two index seeks. Rows are only ever appended, each after the last (the next iteration, or
 * another attempt of the one in flight), so `last` and `lastAttempt` change whenever the scope does.
 */
export async function iterationNumberRange(db: Db, scope: IterationScope) {
  const where = scopeWhere(scope);
  const [first, last] = await Promise.all([
    db.iteration.findFirst({ where, orderBy: [{ number: "asc" }], select: { number: true } }),
    db.iteration.findFirst({
      where,
      orderBy: [{ number: "desc" }, { attempt: "desc" }],
      select: { number: true, attempt: true },
    }),
  ]);
  return first && last ? { first: first.number, last: last.number, lastAttempt: last.attempt } : null;
}

export interface IterationSpan {
  /** The span's first and last iteration numbers; `to` is the iteration drawn for it. */
  from: number;
  to: number;
  attempts: number;
  /** Sums over every attempt in the span: spend and tokens stay exact when summed again. */
  costUsd: number;
  tokensIn: number;
  tokensOut: number;
  tokensCache: number;
  minScore: number | null;
  maxScore: number | null;
  failures: number;
  handoffs: number;
}

/**
 * Min/max-preserving downsampling, in the database. Iterations are cut into
 * runs of `size` numbers (from `first`); in each run the iteration with the
 * lowest mean score, the one with the highest and the first handoff are kept.
 * Every kept iteration ends a span (the last span ends at the last iteration),
 * and each span comes back with its sums and extremes: a few hundred rows
 * whatever the loop's length, and no row of text or JSON crosses the driver.
 * It reads only columns of the chart covering index: no table row is touched.
 */
export async function iterationSpans(
  db: Db,
  scope: IterationScope,
  size: number,
  first: number,
): Promise<IterationSpan[]> {
  const inScope = scopeSql(scope);
  if (!inScope) return [];
  // SQLite binds a JS number as REAL: the casts keep the run index an integer division.
  // `picks`: each run's kept numbers (k1 lowest score, k2 highest, k3 first handoff; equal ones repeat).
  // A row's span is the count of kept numbers before it: `prior` (all earlier runs') plus those of its
  // own run below it, so rows past a run's last kept number join the next run's first span.
  const rows = await db.$queryRaw<SpanRow[]>`
    WITH base AS (
      SELECT "number" AS n, "status" AS st, "meanScore" AS m, "handoffTrigger" AS h,
        "costUsd" AS c, "tokensIn" AS ti, "tokensOut" AS tt, "tokensCache" AS tc,
        ("number" - CAST(${first} AS INTEGER)) / CAST(${size} AS INTEGER) AS run
      FROM "Iteration" WHERE ${inScope}
    ),
    runs AS (
      SELECT run, MIN(m) AS lo, MAX(m) AS hi, MIN(CASE WHEN h IS NOT NULL THEN n END) AS k3
      FROM base GROUP BY run
    ),
    picks AS (
      SELECT b.run,
        MIN(CASE WHEN b.m = r.lo THEN b.n END) AS k1,
        MIN(CASE WHEN b.m = r.hi THEN b.n END) AS k2,
        MIN(r.k3) AS k3
      FROM base b JOIN runs r ON r.run = b.run
      GROUP BY b.run
    ),
    counted AS (
      SELECT picks.*,
        (CASE WHEN k1 IS NULL THEN 0 ELSE 1 END) + (CASE WHEN k2 IS NULL THEN 0 ELSE 1 END)
          + (CASE WHEN k3 IS NULL THEN 0 ELSE 1 END) AS kept
      FROM picks
    ),
    ranked AS (
      SELECT counted.*,
        COALESCE(SUM(kept) OVER (ORDER BY run ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS prior
      FROM counted
    ),
    spanned AS (
      SELECT b.*,
        r.prior
          + (CASE WHEN r.k1 IS NOT NULL AND b.n > r.k1 THEN 1 ELSE 0 END)
          + (CASE WHEN r.k2 IS NOT NULL AND b.n > r.k2 THEN 1 ELSE 0 END)
          + (CASE WHEN r.k3 IS NOT NULL AND b.n > r.k3 THEN 1 ELSE 0 END) AS span
      FROM base b JOIN ranked r ON r.run = b.run
    )
    SELECT
      MIN(n) AS "from",
      MAX(n) AS "to",
      CAST(COUNT(*) AS INTEGER) AS "attempts",
      CAST(COALESCE(SUM(c), 0) AS DOUBLE PRECISION) AS "costUsd",
      CAST(COALESCE(SUM(ti), 0) AS DOUBLE PRECISION) AS "tokensIn",
      CAST(COALESCE(SUM(tt), 0) AS DOUBLE PRECISION) AS "tokensOut",
      CAST(COALESCE(SUM(tc), 0) AS DOUBLE PRECISION) AS "tokensCache",
      MIN(m) AS "minScore",
      MAX(m) AS "maxScore",
      CAST(SUM(CASE WHEN st <> 'succeeded' THEN 1 ELSE 0 END) AS INTEGER) AS "failures",
      CAST(SUM(CASE WHEN h IS NOT NULL THEN 1 ELSE 0 END) AS INTEGER) AS "handoffs"
    FROM spanned
    GROUP BY span
    ORDER BY MIN(n)`;
  return rows.map(spanOf);
}

/**
 * Every row in scope summed as one span (null when it holds none): the same
 * sums and extremes as a span of iterationSpans, by one index range seek. The
 * incremental series (chart-series.ts) keeps the rows after a completed run's
 * last kept iteration this way, to join them to the next run's first span.
 */
export async function iterationSum(db: Db, scope: IterationScope): Promise<IterationSpan | null> {
  const inScope = scopeSql(scope);
  if (!inScope) return null;
  const [row] = await db.$queryRaw<SpanRow[]>`
    SELECT
      MIN("number") AS "from",
      MAX("number") AS "to",
      CAST(COUNT(*) AS INTEGER) AS "attempts",
      CAST(COALESCE(SUM("costUsd"), 0) AS DOUBLE PRECISION) AS "costUsd",
      CAST(COALESCE(SUM("tokensIn"), 0) AS DOUBLE PRECISION) AS "tokensIn",
      CAST(COALESCE(SUM("tokensOut"), 0) AS DOUBLE PRECISION) AS "tokensOut",
      CAST(COALESCE(SUM("tokensCache"), 0) AS DOUBLE PRECISION) AS "tokensCache",
      MIN("meanScore") AS "minScore",
      MAX("meanScore") AS "maxScore",
      CAST(COALESCE(SUM(CASE WHEN "status" <> 'succeeded' THEN 1 ELSE 0 END), 0) AS INTEGER) AS "failures",
      CAST(COALESCE(SUM(CASE WHEN "handoffTrigger" IS NOT NULL THEN 1 ELSE 0 END), 0) AS INTEGER) AS "handoffs"
    FROM "Iteration" WHERE ${inScope}`;
  return row && row.from !== null ? spanOf(row) : null;
}

type SpanRow = Record<keyof IterationSpan, number | bigint | null>;

const num = (v: number | bigint | null) => (v === null ? null : Number(v));
const spanOf = (r: SpanRow): IterationSpan => ({
  from: num(r.from)!,
  to: num(r.to)!,
  attempts: num(r.attempts)!,
  costUsd: num(r.costUsd)!,
  tokensIn: num(r.tokensIn)!,
  tokensOut: num(r.tokensOut)!,
  tokensCache: num(r.tokensCache)!,
  minScore: num(r.minScore),
  maxScore: num(r.maxScore),
  failures: num(r.failures)!,
  handoffs: num(r.handoffs)!,
});

/** A scope as a raw SQL condition, or null when it holds no segment. */
function scopeSql(scope: IterationScope) {
  const segments = segmentsOf(scope);
  if (segments.length === 0) return null;
  return Prisma.join(
    segments.map(
      (s) => Prisma.sql`("loopId" = ${s.loopId} AND "number" > ${s.after} AND "number" <= ${s.upTo ?? NO_UPPER_BOUND})`,
    ),
    " OR ",
  );
}

/**
 * The part of a scope numbered `from`..`to` (inclusive): a window of a loop,
 * or of a fork's lineage, read with the same queries as the whole.
 */
export function clipScope(scope: IterationScope, window: { from: number; to: number }): IterationSegment[] {
  return segmentsOf(scope).flatMap((s) => {
    const after = Math.max(s.after, window.from - 1);
    const upTo = s.upTo === null ? window.to : Math.min(s.upTo, window.to);
    return upTo > after ? [{ loopId: s.loopId, after, upTo }] : [];
  });
}

export function iterationPage(db: Db, scope: IterationScope, options: { beforeNumber?: number; limit: number }) {
  return db.iteration.findMany({
    where: scopeWhere(scope, options.beforeNumber ? { lt: options.beforeNumber } : {}),
    orderBy: [{ number: "desc" }, { attempt: "desc" }],
    take: options.limit,
    // A page stays small: each iteration's code diff (up to 1 MB) and transcript are read on their own.
    omit: { codeDiff: true, transcript: true },
  });
}

/** One iteration's (latest attempt's) workspace snapshot and code diff. */
export function iterationCodeDiff(db: Db, loopId: string, number: number) {
  return db.iteration.findFirst({
    where: { loopId, number },
    orderBy: { attempt: "desc" },
    select: { number: true, attempt: true, workspace: true, codeDiff: true },
  });
}

/** One iteration's transcript lines: the given attempt, else the latest. */
export function iterationTranscript(db: Db, loopId: string, number: number, attempt?: number) {
  return db.iteration.findFirst({
    where: { loopId, number, ...(attempt !== undefined ? { attempt } : {}) },
    orderBy: { attempt: "desc" },
    select: { number: true, attempt: true, transcript: true },
  });
}

const recentRows = (db: Db, loops: { id: string; iteration: number }[], count: number) =>
  db.iteration.findMany({
    where: { OR: loops.map((l) => ({ loopId: l.id, number: { gt: l.iteration - count } })) },
    orderBy: [{ number: "desc" }, { attempt: "desc" }],
    select: { loopId: true, number: true, meanScore: true, durationMs: true, finishedAt: true },
  });

/**
 * The last `count` iterations of each loop, oldest first (sparklines, pace
 * alarms), in one query for the whole page. A per-group limit is not
 * expressible in one portable Prisma query, and one query per loop (25 on a
 * page) queued behind writers for the connection pool: during a burst of loop
 * creations on PostgreSQL the list waited on them. Each loop's row says its
 * latest iteration number, so "number above latest - count" bounds the rows;
 * extra attempts of one number are trimmed here.
 */
export async function recentIterations(db: Db, loops: { id: string; iteration: number }[], count: number) {
  type Row = Omit<Awaited<ReturnType<typeof recentRows>>[number], "loopId">;
  const byLoop = new Map<string, Row[]>(loops.map((l) => [l.id, []]));
  if (loops.length === 0) return byLoop;
  const rows = await recentRows(db, loops, count);
  for (const { loopId, ...row } of rows) {
    const list = byLoop.get(loopId)!;
    if (list.length < count) list.push(row);
  }
  for (const list of byLoop.values()) list.reverse();
  return byLoop;
}

/** The git snapshot sha of iteration `number` (its latest attempt), or null when none was taken. */
export async function iterationSnapshotSha(db: Db, loopId: string, number: number): Promise<string | null> {
  const row = await db.iteration.findFirst({
    where: { loopId, number },
    orderBy: { attempt: "desc" },
    select: { workspace: true },
  });
  const sha = (row?.workspace as { sha?: unknown } | null | undefined)?.sha;
  return typeof sha === "string" ? sha : null;
}

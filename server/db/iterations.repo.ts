// Iteration reads: the light series the charts need, and full rows by page.
import type { Db } from "./client";

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

// The largest INTEGER both providers compare a bound parameter with.
const NO_UPPER_BOUND = 2_147_483_647;

const segmentsOf = (scope: IterationScope): readonly IterationSegment[] =>
  typeof scope === "string" ? [{ loopId: scope, after: 0, upTo: null }] : scope;

function scopeWhere(scope: IterationScope, number: { lt?: number } = {}) {
  const parts = segmentsOf(scope).map((s) => ({
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

export async function lastIterationNumber(db: Db, scope: IterationScope): Promise<number> {
  const found = await db.iteration.findFirst({
    where: scopeWhere(scope),
    orderBy: [{ number: "desc" }],
    select: { number: true },
  });
  return found?.number ?? 0;
}

/** How many stored runs (attempts) of a loop ended in each status: an interrupted run counts as interrupted. */
export async function iterationStatusCounts(db: Db, loopId: string): Promise<Record<string, number>> {
  const groups = await db.iteration.groupBy({ by: ["status"], where: { loopId }, _count: { _all: true } });
  return Object.fromEntries(groups.map((g) => [g.status, g._count._all]));
}

export interface IterationBucket {
  /** The bucket's first and last iteration numbers present. */
  first: number;
  last: number;
  attempts: number;
  /** Sums over every attempt in the bucket: spend and tokens stay exact when summed again. */
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
 * Iterations grouped `size` by `size` (by number), aggregated in the database:
 * a loop of 20,000 iterations answers with a few hundred rows, not 20,000.
 */
export async function iterationBuckets(db: Db, scope: IterationScope, size: number): Promise<IterationBucket[]> {
  const parts = await Promise.all(segmentsOf(scope).map((s) => segmentBuckets(db, s, size)));
  // A bucket that straddles a fork point comes back in two halves: join them.
  const byKey = new Map<number, IterationBucket>();
  for (const b of parts.flat()) {
    const key = Math.floor((b.first - 1) / size);
    const had = byKey.get(key);
    byKey.set(key, had ? joinBuckets(had, b) : b);
  }
  return [...byKey.values()].sort((a, b) => a.first - b.first);
}

function joinBuckets(a: IterationBucket, b: IterationBucket): IterationBucket {
  const pick = (x: number | null, y: number | null, f: (...n: number[]) => number) =>
    x === null ? y : y === null ? x : f(x, y);
  return {
    first: Math.min(a.first, b.first),
    last: Math.max(a.last, b.last),
    attempts: a.attempts + b.attempts,
    costUsd: a.costUsd + b.costUsd,
    tokensIn: a.tokensIn + b.tokensIn,
    tokensOut: a.tokensOut + b.tokensOut,
    tokensCache: a.tokensCache + b.tokensCache,
    minScore: pick(a.minScore, b.minScore, Math.min),
    maxScore: pick(a.maxScore, b.maxScore, Math.max),
    failures: a.failures + b.failures,
    handoffs: a.handoffs + b.handoffs,
  };
}

async function segmentBuckets(db: Db, segment: IterationSegment, size: number): Promise<IterationBucket[]> {
  const { loopId, after } = segment;
  const upTo = segment.upTo ?? NO_UPPER_BOUND;
  // Integer division in both SQLite and PostgreSQL (SQLite binds a JS number as REAL, hence the cast); casts keep
  // PostgreSQL's bigint/numeric aggregates plain numbers.
  const rows = await db.$queryRaw<Record<keyof IterationBucket, number | bigint | null>[]>`
    SELECT
      MIN("number") AS "first",
      MAX("number") AS "last",
      CAST(COUNT(*) AS INTEGER) AS "attempts",
      CAST(COALESCE(SUM("costUsd"), 0) AS DOUBLE PRECISION) AS "costUsd",
      CAST(COALESCE(SUM("tokensIn"), 0) AS DOUBLE PRECISION) AS "tokensIn",
      CAST(COALESCE(SUM("tokensOut"), 0) AS DOUBLE PRECISION) AS "tokensOut",
      CAST(COALESCE(SUM("tokensCache"), 0) AS DOUBLE PRECISION) AS "tokensCache",
      MIN("meanScore") AS "minScore",
      MAX("meanScore") AS "maxScore",
      CAST(SUM(CASE WHEN "status" <> 'succeeded' THEN 1 ELSE 0 END) AS INTEGER) AS "failures",
      CAST(SUM(CASE WHEN "handoffTrigger" IS NOT NULL THEN 1 ELSE 0 END) AS INTEGER) AS "handoffs"
    FROM "Iteration"
    WHERE "loopId" = ${loopId} AND "number" > ${after} AND "number" <= ${upTo}
    GROUP BY ("number" - 1) / CAST(${size} AS INTEGER)
    ORDER BY MIN("number")`;
  const num = (v: number | bigint | null) => (v === null ? null : Number(v));
  return rows.map((r) => ({
    first: num(r.first)!,
    last: num(r.last)!,
    attempts: num(r.attempts)!,
    costUsd: num(r.costUsd)!,
    tokensIn: num(r.tokensIn)!,
    tokensOut: num(r.tokensOut)!,
    tokensCache: num(r.tokensCache)!,
    minScore: num(r.minScore),
    maxScore: num(r.maxScore),
    failures: num(r.failures)!,
    handoffs: num(r.handoffs)!,
  }));
}

export function iterationPage(db: Db, scope: IterationScope, options: { beforeNumber?: number; limit: number }) {
  return db.iteration.findMany({
    where: scopeWhere(scope, options.beforeNumber ? { lt: options.beforeNumber } : {}),
    orderBy: [{ number: "desc" }, { attempt: "desc" }],
    take: options.limit,
    // A page stays small: each iteration's code diff (up to 1 MB) is read on its own.
    omit: { codeDiff: true },
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

// The series the charts draw, bounded whatever the loop's length. Up to
// `maxPoints` iterations every attempt is sent; beyond, the iterations are
// downsampled here, min/max-preserving rather than averaged:
//  - they are cut into about maxPoints / 3 runs of equal length, and in each
//    run the iteration with the lowest mean score, the one with the highest
//    and its first handoff are kept as points (plus the very last iteration),
//    chosen in the database (iterationSpans);
//  - each point stands for the iterations since the previous point (its
//    `span`), with their spend and tokens summed, so running totals stay exact.
// So a regression dip, a new best and a fresh context survive at any length,
// and a plateau (a run of points without a new best) keeps its true width in
// iterations. Zooming in asks for a window, which is sent at full resolution
// once it holds no more than `maxPoints` iterations.
//
// A downsampled series is kept in process memory (a few recent scopes, per
// database) with what it was drawn from: the scope's first and last iteration
// and last attempt, which two index seeks read on every call. Iterations are
// only ever appended after the last, so a series whose range still matches
// is still true, and a finished or slow loop's page is not downsampled again
// on every refetch. When the loop has grown and the run length is unchanged
// (at 20,000 iterations it changes once per ~133 iterations), only its last
// run is downsampled again: every run before it is complete, so its picks and
// the spans ending in it are final (see Incremental below).
import type { Database } from "../db/client";
import {
  clipScope,
  iterationNumberRange,
  iterationSeries,
  iterationSeriesAt,
  iterationSpans,
  iterationSum,
  type IterationScope,
  type IterationSpan,
} from "../db/iterations.repo";

// About 0.4 KB a point: 400 keep the whole detail payload well under 200 KB at any length.
export const SERIES_POINTS = 400;
// About 130 KB each (the series and the final part it is extended from share their points).
const CACHED_SERIES = 16;

type Range = { first: number; last: number; lastAttempt: number };

/**
 * A downsampled series and what extends it. With `bucketSize` runs counted
 * from `range.first`, `boundary` is the first number of the run holding the
 * last iteration. `final`: the points of every span ending before it (each
 * ends at a kept iteration of a complete run, so none changes again).
 * `carry`: the rows between the last of those and the boundary, which belong
 * to the first span from the boundary on (null when there are none).
 */
interface Entry {
  range: Range;
  bucketSize: number;
  series: ChartSeries;
  boundary: number;
  final: ChartPoint[];
  carry: IterationSpan | null;
}

const cache = new WeakMap<Database, Map<string, { range: Range; entry: Promise<Entry> }>>();

/** Forgets every cached series of `db` (the bench times uncached calls with it). */
export function clearChartSeriesCache(db: Database) {
  cache.delete(db);
}

/** How many series of `db` are cached (tests check the bound). */
export function cachedChartSeriesCount(db: Database) {
  return cache.get(db)?.size ?? 0;
}

type Row = Awaited<ReturnType<typeof iterationSeries>>[number];
type ScoreCell = { score: number; reason: string | null };

export interface ChartSpan {
  from: number;
  to: number;
  attempts: number;
  failures: number;
  handoffs: number;
  minScore: number | null;
  maxScore: number | null;
}

export interface ChartPoint extends Omit<Row, "scores"> {
  scores: Record<string, number>;
  /** The loop this point's iteration ran in: a fork's own id, or the ancestor it inherited it from. */
  loopId: string;
  span?: ChartSpan;
}

export interface ChartSeries {
  points: ChartPoint[];
  /** 1 when every attempt is a point; else the length of the runs each keeps its extremes of. */
  bucketSize: number;
}

const scoreValues = (scores: Row["scores"]) =>
  Object.fromEntries(Object.entries((scores ?? {}) as Record<string, ScoreCell>).map(([k, v]) => [k, v.score]));

/**
 * `scope`: the loop's id, or a fork's lineage (its parent's iterations up to the fork point first).
 * `window`: only iterations `from`..`to` (a zoomed-in chart).
 */
export async function chartSeries(
  db: Database,
  scope: IterationScope,
  maxPoints = SERIES_POINTS,
  window?: { from: number; to: number },
): Promise<ChartSeries> {
  const inScope = window ? clipScope(scope, window) : scope;
  const range = await iterationNumberRange(db.prisma, inScope);
  if (!range) return { points: [], bucketSize: 1 };
  if (range.last - range.first + 1 <= maxPoints) {
    const rows = await iterationSeries(db.prisma, inScope);
    return { points: rows.map((r) => ({ ...r, scores: scoreValues(r.scores) })), bucketSize: 1 };
  }
  const size = Math.ceil((range.last - range.first + 1) / Math.max(1, Math.floor(maxPoints / 3)));
  return (await cachedEntry(db, inScope, JSON.stringify([inScope, maxPoints]), range, size)).series;
}

const sameRange = (a: Range, b: Range) => a.first === b.first && a.last === b.last && a.lastAttempt === b.lastAttempt;
// Rows are appended in (number, attempt) order, so a later read never sees a smaller pair.
const notOlder = (a: Range, b: Range) => a.last > b.last || (a.last === b.last && a.lastAttempt >= b.lastAttempt);

/**
 * The entry for `range`: the cached one when the scope has not changed, else
 * the cached one extended, else a new one; kept as the newest (least recently
 * used dropped). A read older than the cached one (a slower concurrent call)
 * is built alone and not kept.
 */
function cachedEntry(db: Database, scope: IterationScope, key: string, range: Range, size: number) {
  let entries = cache.get(db);
  if (!entries) cache.set(db, (entries = new Map()));
  const found = entries.get(key);
  if (found && sameRange(found.range, range)) {
    entries.delete(key);
    entries.set(key, found);
    return found.entry;
  }
  if (found && !notOlder(range, found.range)) return build(db, scope, range, size);
  const entry = (found ? found.entry.catch(() => null) : Promise.resolve(null)).then((base) =>
    base && base.range.first === range.first && base.bucketSize === size
      ? extend(db, scope, base, range)
      : build(db, scope, range, size),
  );
  const slot = { range, entry };
  // A failed read is not remembered.
  entry.catch(() => entries.get(key) === slot && entries.delete(key));
  entries.delete(key);
  entries.set(key, slot);
  for (const oldest of entries.keys()) {
    if (entries.size <= CACHED_SERIES) break;
    entries.delete(oldest);
  }
  return entry;
}

/** The first number of the run holding `range.last`. */
const boundaryOf = (range: Range, size: number) => range.first + Math.floor((range.last - range.first) / size) * size;

/** A scope longer than the point budget, downsampled whole: a point per span (see iterationSpans). */
async function build(db: Database, scope: IterationScope, range: Range, size: number): Promise<Entry> {
  const spans = await iterationSpans(db.prisma, scope, size, range.first);
  const points = await pointsOf(db, scope, spans);
  return settle(db, scope, { range, bucketSize: size, series: { points, bucketSize: size } });
}

/**
 * Incremental: `base` drawn with the same run length from the same first
 * iteration, the scope since grown. Runs before base's boundary are complete
 * and cut the same way, so only the rows from it on are downsampled again (an
 * index range seek over a run or two), the carry joined to their first span.
 * A fork's lineage extends the same way: it only grows at its end.
 */
async function extend(db: Database, scope: IterationScope, base: Entry, range: Range): Promise<Entry> {
  const tail = await iterationSpans(
    db.prisma,
    clipScope(scope, { from: base.boundary, to: range.last }),
    base.bucketSize,
    range.first,
  );
  if (base.carry && tail[0]) tail[0] = joined(base.carry, tail[0]);
  const tailPoints = await pointsOf(db, scope, tail);
  const points = [...base.final, ...tailPoints];
  const series = { points, bucketSize: base.bucketSize };
  const grown = { range, bucketSize: base.bucketSize, series };
  if (boundaryOf(range, base.bucketSize) === base.boundary) return { ...grown, ...finalPart(base) };
  // The last run has moved on: the spans ending before the new boundary are final now.
  return settle(db, scope, grown);
}

const finalPart = (e: Entry) => ({ boundary: e.boundary, final: e.final, carry: e.carry });

/**
 * Completes an entry: splits its points at the boundary of its range (the
 * spans ending before it are final) and reads the carry, the rows after the
 * last of them (or the first iteration) up to the boundary.
 */
async function settle(db: Database, scope: IterationScope, e: Omit<Entry, "boundary" | "final" | "carry">) {
  const boundary = boundaryOf(e.range, e.bucketSize);
  const final = e.series.points.filter((p) => p.span!.to < boundary);
  const after = final.at(-1)?.span!.to ?? e.range.first - 1;
  const carry =
    after + 1 < boundary
      ? await iterationSum(db.prisma, clipScope(scope, { from: after + 1, to: boundary - 1 }))
      : null;
  return { ...e, boundary, final, carry };
}

/** Two adjacent spans as one: the sums SQL would have made of their rows together. */
function joined(a: IterationSpan, b: IterationSpan): IterationSpan {
  const extreme = (pick: (x: number, y: number) => number, x: number | null, y: number | null) =>
    x === null ? y : y === null ? x : pick(x, y);
  return {
    from: Math.min(a.from, b.from),
    to: Math.max(a.to, b.to),
    attempts: a.attempts + b.attempts,
    costUsd: a.costUsd + b.costUsd,
    tokensIn: a.tokensIn + b.tokensIn,
    tokensOut: a.tokensOut + b.tokensOut,
    tokensCache: a.tokensCache + b.tokensCache,
    minScore: extreme(Math.min, a.minScore, b.minScore),
    maxScore: extreme(Math.max, a.maxScore, b.maxScore),
    failures: a.failures + b.failures,
    handoffs: a.handoffs + b.handoffs,
  };
}

/** A point per span: the series row of the iteration it ends at. */
async function pointsOf(db: Database, scope: IterationScope, spans: IterationSpan[]): Promise<ChartPoint[]> {
  if (spans.length === 0) return [];
  const rows = await iterationSeriesAt(
    db.prisma,
    scope,
    spans.map((s) => s.to),
  );
  // A point shows its iteration's last attempt (the one that scored); its span's sums count every attempt.
  const lastAttempt = new Map<number, Row>();
  for (const r of rows) if ((lastAttempt.get(r.number)?.attempt ?? 0) <= r.attempt) lastAttempt.set(r.number, r);
  return spans.flatMap((s) => {
    const row = lastAttempt.get(s.to);
    return row ? [spanPoint(row, s)] : [];
  });
}

function spanPoint(row: Row, s: IterationSpan): ChartPoint {
  const { costUsd, tokensIn, tokensOut, tokensCache, ...span } = s;
  return { ...row, scores: scoreValues(row.scores), costUsd, tokensIn, tokensOut, tokensCache, span };
}

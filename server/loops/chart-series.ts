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
// A downsampled series is kept in process memory (a few recent loops, per
// database), keyed by what it was drawn from and the scope's last iteration
// and attempt: iterations are only ever appended after the last, so a series
// whose key still matches is still true, and a finished or slow loop's page
// is not downsampled again on every refetch.
import type { Database } from "../db/client";
import {
  clipScope,
  iterationNumberRange,
  iterationSeries,
  iterationSeriesAt,
  iterationSpans,
  type IterationScope,
  type IterationSpan,
} from "../db/iterations.repo";

// About 0.4 KB a point: 400 keep the whole detail payload well under 200 KB at any length.
export const SERIES_POINTS = 400;
// About 130 KB each: a handful of open detail pages stay cached.
const CACHED_SERIES = 16;

const cache = new WeakMap<Database, Map<string, Promise<ChartSeries>>>();

/** Forgets every cached series of `db` (the bench times uncached calls with it). */
export function clearChartSeriesCache(db: Database) {
  cache.delete(db);
}

/** The cached series for `key`, or `build`'s, kept as the newest entry (least recently used dropped). */
function cached(db: Database, key: string, build: () => Promise<ChartSeries>): Promise<ChartSeries> {
  let entries = cache.get(db);
  if (!entries) cache.set(db, (entries = new Map()));
  let found = entries.get(key);
  if (found) entries.delete(key);
  else {
    found = build();
    // A failed read is not remembered.
    found.catch(() => entries.get(key) === found && entries.delete(key));
  }
  entries.set(key, found);
  for (const oldest of entries.keys()) {
    if (entries.size <= CACHED_SERIES) break;
    entries.delete(oldest);
  }
  return found;
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
  const key = JSON.stringify([inScope, maxPoints, range]);
  return cached(db, key, () => downsampled(db, inScope, maxPoints, range));
}

/** The series of a scope longer than `maxPoints`: a point per span (see iterationSpans). */
async function downsampled(
  db: Database,
  scope: IterationScope,
  maxPoints: number,
  range: { first: number; last: number },
): Promise<ChartSeries> {
  const bucketSize = Math.ceil((range.last - range.first + 1) / Math.max(1, Math.floor(maxPoints / 3)));
  const spans = await iterationSpans(db.prisma, scope, bucketSize, range.first);
  const rows = await iterationSeriesAt(
    db.prisma,
    scope,
    spans.map((s) => s.to),
  );
  // A point shows its iteration's last attempt (the one that scored); its span's sums count every attempt.
  const lastAttempt = new Map<number, Row>();
  for (const r of rows) if ((lastAttempt.get(r.number)?.attempt ?? 0) <= r.attempt) lastAttempt.set(r.number, r);
  const points = spans.flatMap((s) => {
    const row = lastAttempt.get(s.to);
    return row ? [spanPoint(row, s)] : [];
  });
  return { points, bucketSize };
}

function spanPoint(row: Row, s: IterationSpan): ChartPoint {
  const { costUsd, tokensIn, tokensOut, tokensCache, ...span } = s;
  return { ...row, scores: scoreValues(row.scores), costUsd, tokensIn, tokensOut, tokensCache, span };
}

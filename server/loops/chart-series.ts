// The series the charts draw, bounded whatever the loop's length. Up to
// SERIES_POINTS iterations every attempt is sent; beyond, iterations are
// bucketed in the database and each bucket becomes one point: the scores of
// its last iteration, the spend and tokens of the whole bucket (so running
// totals stay exact) and its best and worst mean score (so a regression or a
// new best inside a bucket still shows).
import type { Database } from "../db/client";
import {
  iterationBuckets,
  iterationSeries,
  iterationSeriesAt,
  lastIterationNumber,
  type IterationBucket,
  type IterationScope,
} from "../db/iterations.repo";

// About 0.4 KB a point: 400 keep the whole detail payload near 160 KB at any length.
export const SERIES_POINTS = 400;

type Row = Awaited<ReturnType<typeof iterationSeries>>[number];
type ScoreCell = { score: number; reason: string | null };

export interface ChartPoint extends Omit<Row, "scores"> {
  scores: Record<string, number>;
  /** The loop this point's iteration ran in: a fork's own id, or the ancestor it inherited it from. */
  loopId: string;
  span?: {
    from: number;
    to: number;
    attempts: number;
    failures: number;
    handoffs: number;
    minScore: number | null;
    maxScore: number | null;
  };
}

const scoreValues = (scores: Row["scores"]) =>
  Object.fromEntries(Object.entries((scores ?? {}) as Record<string, ScoreCell>).map(([k, v]) => [k, v.score]));

/** `scope`: the loop's id, or a fork's lineage (its parent's iterations up to the fork point first). */
export async function chartSeries(
  db: Database,
  scope: IterationScope,
  maxPoints = SERIES_POINTS,
): Promise<{ points: ChartPoint[]; bucketSize: number }> {
  const last = await lastIterationNumber(db.prisma, scope);
  if (last <= maxPoints) {
    const rows = await iterationSeries(db.prisma, scope);
    return { points: rows.map((r) => ({ ...r, scores: scoreValues(r.scores) })), bucketSize: 1 };
  }
  const bucketSize = Math.ceil(last / maxPoints);
  const buckets = await iterationBuckets(db.prisma, scope, bucketSize);
  const rows = await iterationSeriesAt(
    db.prisma,
    scope,
    buckets.map((b) => b.last),
  );
  // Only the last attempt of each bucket's last iteration: the bucket's sums already count every attempt.
  const lastAttempt = new Map<number, Row>();
  for (const r of rows) if ((lastAttempt.get(r.number)?.attempt ?? 0) <= r.attempt) lastAttempt.set(r.number, r);
  const points = buckets.flatMap((b) => {
    const row = lastAttempt.get(b.last);
    return row ? [bucketPoint(row, b)] : [];
  });
  return { points, bucketSize };
}

function bucketPoint(row: Row, b: IterationBucket): ChartPoint {
  return {
    ...row,
    scores: scoreValues(row.scores),
    costUsd: b.costUsd,
    tokensIn: b.tokensIn,
    tokensOut: b.tokensOut,
    tokensCache: b.tokensCache,
    span: {
      from: b.first,
      to: b.last,
      attempts: b.attempts,
      failures: b.failures,
      handoffs: b.handoffs,
      minScore: b.minScore,
      maxScore: b.maxScore,
    },
  };
}

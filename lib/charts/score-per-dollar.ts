// Score gained per dollar: the best score so far against cumulative spend,
// and the rate overall and over the last few iterations (diminishing returns
// show as a recent rate far below the overall one). Pure.
import { lastAttempts, type IterationPoint } from "./types";

export interface ScoreSpendRow {
  iteration: number;
  spent: number;
  best: number | null;
}

export interface ScorePerDollar {
  rows: ScoreSpendRow[];
  /** Best score gained since the first scored iteration, per dollar spent since it; null until it can be said. */
  overall: number | null;
  /** The same over the last `window` iterations. */
  recent: number | null;
  window: number;
}

export function scorePerDollar(points: readonly IterationPoint[], window = 5): ScorePerDollar {
  // Every attempt costs money; the last attempt of a number is the one that scored.
  const spentBy = new Map<number, number>();
  for (const p of points) spentBy.set(p.number, (spentBy.get(p.number) ?? 0) + p.costUsd);
  let spent = 0;
  let best: number | null = null;
  const rows: ScoreSpendRow[] = lastAttempts(points).map((p) => {
    spent += spentBy.get(p.number) ?? 0;
    const top = p.span?.maxScore ?? p.meanScore;
    if (top !== null) best = best === null ? top : Math.max(best, top);
    return { iteration: p.number, spent, best };
  });
  const rate = (from: ScoreSpendRow | undefined, to: ScoreSpendRow | undefined) => {
    if (!from || !to || from.best === null || to.best === null) return null;
    const cost = to.spent - from.spent;
    return cost > 0 ? (to.best - from.best) / cost : null;
  };
  const firstScored = rows.findIndex((r) => r.best !== null);
  const last = rows.at(-1);
  const overall = firstScored === -1 ? null : rate(rows[firstScored], last);
  const recentFrom = rows[Math.max(firstScored, rows.length - 1 - window)];
  const recent = firstScored === -1 || rows.length - 1 - firstScored < window ? null : rate(recentFrom, last);
  return { rows, overall, recent, window };
}

/** "+0.42 / $" with enough digits to be true for tiny or huge rates. */
export function formatPerDollar(rate: number | null): string {
  if (rate === null) return "—";
  const sign = rate > 0 ? "+" : rate < 0 ? "−" : "";
  const abs = Math.abs(rate);
  const digits = abs === 0 ? "0" : abs >= 100 ? abs.toFixed(0) : Number(abs.toPrecision(3)).toString();
  return `${sign}${digits} per $`;
}

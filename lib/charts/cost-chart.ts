// Cumulative cost against the budget line, with the engine's forecast drawn
// from the last actual point to the end of the allowed iterations.
import { lastAttempts, type IterationPoint } from "./types";

export interface CostRow {
  iteration: number;
  /** Actual cumulative spend; null on forecast-only rows. */
  cost: number | null;
  /** Projected cumulative spend; null before the last actual point. */
  forecast: number | null;
}

export interface CostForecastInput {
  remainingIterations: number;
  projectedTotalCost: number;
  /**
   * What the remaining iterations cost at the recent pace. When given, the forecast ends at the
   * spend the chart draws plus this, so a forecast read before the newest iterations never ends
   * below what was already spent ("≈ $0 at the end" with $0.04 spent).
   */
  projectedCostToFinish?: number;
  iterationsUntilExhausted: number | null;
}

export interface CostChart {
  rows: CostRow[];
  budget: number | null;
  total: number;
  /** The iteration at which the forecast says the budget runs out, if it does before the end. */
  exhaustedAt: number | null;
  /** Where the forecast ends (iteration limit) and what it projects then; null without a forecast. */
  forecastEnd: { iteration: number; total: number } | null;
}

export function prepareCostChart(
  points: readonly IterationPoint[],
  options: {
    budget?: number | null;
    forecast?: CostForecastInput | null;
    /** Draw the forecast only up to this iteration (the charts' right edge), interpolated there. */
    until?: number;
  } = {},
): CostChart {
  // Every attempt costs money, interrupted ones included, so sum them all.
  const spentBy = new Map<number, number>();
  for (const p of points) spentBy.set(p.number, (spentBy.get(p.number) ?? 0) + p.costUsd);
  let total = 0;
  const rows: CostRow[] = [...spentBy.entries()]
    .sort(([a], [b]) => a - b)
    .map(([iteration, cost]) => {
      total += cost;
      return { iteration, cost: total, forecast: null };
    });
  const budget = options.budget && options.budget > 0 ? options.budget : null;
  const forecast = options.forecast;
  let exhaustedAt: number | null = null;
  let forecastEnd: CostChart["forecastEnd"] = null;
  const last = rows.at(-1);
  if (forecast && forecast.remainingIterations > 0) {
    const from = last?.iteration ?? 0;
    const startCost = last?.cost ?? 0;
    if (last) last.forecast = last.cost;
    else rows.push({ iteration: 0, cost: 0, forecast: 0 });
    const end = from + forecast.remainingIterations;
    // Spend never goes down: whatever the forecast was computed from, it ends at or above the spend drawn.
    const endTotal =
      forecast.projectedCostToFinish !== undefined
        ? startCost + forecast.projectedCostToFinish
        : Math.max(startCost, forecast.projectedTotalCost);
    forecastEnd = { iteration: end, total: endTotal };
    const stop = options.until !== undefined ? Math.max(from, Math.min(end, options.until)) : end;
    const share = (stop - from) / forecast.remainingIterations;
    if (stop > from)
      rows.push({
        iteration: stop,
        cost: null,
        forecast: startCost + (endTotal - startCost) * share,
      });
    if (
      forecast.iterationsUntilExhausted !== null &&
      forecast.iterationsUntilExhausted < forecast.remainingIterations
    ) {
      exhaustedAt = from + forecast.iterationsUntilExhausted;
    }
  }
  return { rows, budget, total, exhaustedAt, forecastEnd };
}

export interface TokenRow {
  iteration: number;
  input: number;
  output: number;
  cache: number;
}

/** Tokens per iteration, stacked in / out / cache (all attempts of a number added up). */
export function prepareTokenChart(points: readonly IterationPoint[]): TokenRow[] {
  const rows = new Map<number, TokenRow>();
  for (const p of points) {
    const row = rows.get(p.number) ?? { iteration: p.number, input: 0, output: 0, cache: 0 };
    row.input += p.tokensIn;
    row.output += p.tokensOut;
    row.cache += p.tokensCache;
    rows.set(p.number, row);
  }
  return [...rows.values()].sort((a, b) => a.iteration - b.iteration);
}

/**
 * Time to finish from the recent pace: the median of the last few iteration
 * durations (robust against one slow call) plus the pacing delay, times the
 * iterations left. Null when there is nothing to go on.
 */
export function estimateEtaMs(
  points: readonly IterationPoint[],
  remainingIterations: number,
  delayMs = 0,
  window = 5,
): number | null {
  if (remainingIterations <= 0) return 0;
  const recent = lastAttempts(points)
    .slice(-window)
    .map((p) => p.durationMs)
    .sort((a, b) => a - b);
  if (recent.length === 0) return null;
  const mid = Math.floor(recent.length / 2);
  const median = recent.length % 2 ? recent[mid]! : (recent[mid - 1]! + recent[mid]!) / 2;
  return Math.round((median + delayMs) * remainingIterations);
}

// The shared x range of a loop's charts and the cost chart's y range. Pure.
//  - x runs to the last iteration with a little headroom, whatever the
//    iteration limit: the forecast is drawn lightly into that headroom and
//    its end value is named in words, so spend is never squashed to the left;
//  - y fits the spend (and the visible forecast); a budget far above it stays
//    off the scale, named at the top edge ("budget $20 ↑ off scale").

export interface IterationWindow {
  domain: [number, number];
  ticks: number[];
  /** The last actual iteration (0 before the first). */
  last: number;
  /** The right edge's iteration: where the drawn forecast stops. */
  edge: number;
}

/** Headroom to the right: a tenth of the range, at least one iteration. */
export function iterationWindow(iterations: readonly number[]): IterationWindow {
  if (iterations.length === 0) return { domain: [0, 1], ticks: [], last: 0, edge: 1 };
  let lo = Infinity;
  let hi = -Infinity;
  for (const i of iterations) {
    if (i < lo) lo = i;
    if (i > hi) hi = i;
  }
  const edge = hi + Math.max(1, Math.ceil((hi - lo + 1) * 0.1));
  const step = Math.max(1, Math.ceil((hi - lo) / 8));
  const ticks: number[] = [];
  for (let t = lo; t <= hi; t += step) ticks.push(t);
  return { domain: [lo - 0.5, edge], ticks, last: hi, edge };
}

export interface CostScale {
  top: number;
  /** The budget line when it fits on the scale, else null. */
  budgetLine: number | null;
  /** "budget $20 ↑ off scale" when the budget is far above everything drawn. */
  offScaleLabel: string | null;
}

/** Above this many times the spend, the budget would flatten the spend line: it goes off scale. */
export const OFF_SCALE_FACTOR = 3;

export function costScale(drawnMax: number, budget: number | null, formatUsd: (n: number) => string): CostScale {
  const base = drawnMax > 0 ? drawnMax * 1.15 : 0.01;
  if (budget === null || budget <= 0) return { top: base, budgetLine: null, offScaleLabel: null };
  if (budget <= Math.max(drawnMax, 0) * OFF_SCALE_FACTOR || (drawnMax <= 0 && budget <= base)) {
    return { top: Math.max(base, budget * 1.08), budgetLine: budget, offScaleLabel: null };
  }
  return { top: base, budgetLine: null, offScaleLabel: `budget ${formatUsd(budget)} ↑ off scale` };
}

/** The x range of a zoomed-in chart: exactly iterations from..to, no headroom (nothing is forecast there). */
export function zoomWindow(from: number, to: number): IterationWindow {
  const step = Math.max(1, Math.ceil((to - from) / 8));
  const ticks: number[] = [];
  for (let t = from; t <= to; t += step) ticks.push(t);
  return { domain: [from - 0.5, to + 0.5], ticks, last: to, edge: to + 0.5 };
}

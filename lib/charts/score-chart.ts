// Score per iteration for each scorer, the mean, the best-so-far envelope,
// the threshold line and plateau/regression markers.
import { eventIteration, lastAttempts, type ChartEvent, type IterationPoint } from "./types";
import { scoreMarkers, type ScoreMarker } from "./score-markers";

export type { ScoreMarker } from "./score-markers";

export interface ScoreRow {
  iteration: number;
  mean: number | null;
  best: number | null;
  /** One key per scorer, `s:<name>`, so scorer names never clash with the fixed keys. */
  [scorer: `s:${string}`]: number | null;
}

export interface ScoreChart {
  scorers: string[];
  rows: ScoreRow[];
  markers: ScoreMarker[];
  handoffs: number[];
  threshold: number | null;
}

export interface ScoreChartOptions {
  /** stop.scoreThreshold; 0 means off. */
  threshold?: number | null;
  /** Iterations without a new best that make a plateau. */
  plateauAfter?: number;
  /** A drop in the mean this large from one iteration to the next is a regression. */
  regressionDrop?: number;
  /** Smaller improvements than this do not count as a new best. */
  epsilon?: number;
  /** Audit events: "handoff" events mark fresh contexts the records do not carry (operator-forced ones). */
  events?: readonly ChartEvent[];
}

export const scorerKey = (name: string) => `s:${name}` as const;

export function prepareScoreChart(points: readonly IterationPoint[], options: ScoreChartOptions = {}): ScoreChart {
  const series = lastAttempts(points);
  const scorers = [...new Set(series.flatMap((p) => Object.keys(p.scores)))].sort();

  const rows: ScoreRow[] = [];
  let best: number | null = null;
  for (const p of series) {
    const row: ScoreRow = { iteration: p.number, mean: p.meanScore, best: null };
    for (const name of scorers) row[scorerKey(name)] = p.scores[name] ?? null;
    if (p.meanScore !== null) {
      const top = p.span?.maxScore ?? p.meanScore;
      best = best === null ? top : Math.max(best, top);
    }
    row.best = best;
    rows.push(row);
  }
  const markers = scoreMarkers(series, options);
  const threshold = options.threshold && options.threshold > 0 ? options.threshold : null;
  return { scorers, rows, markers, handoffs: handoffIterations(series, options.events), threshold };
}

/**
 * Handoffs by the iteration after which the next one started from a fresh
 * context, with their trigger: from the records' handoffTrigger and from
 * "handoff" events (an operator-forced handoff is an event, not a record field).
 */
export function handoffTriggers(
  points: readonly Pick<IterationPoint, "number" | "handoffTrigger">[],
  events: readonly ChartEvent[] = [],
): Map<number, string> {
  const out = new Map<number, string>();
  for (const p of points) if (p.handoffTrigger) out.set(p.number, p.handoffTrigger);
  for (const e of events) {
    const at = eventIteration(e);
    if (e.type === "handoff" && at !== null && !out.has(at))
      out.set(at, String((e.payload as { trigger?: unknown }).trigger ?? "handoff"));
  }
  return new Map([...out.entries()].sort(([a], [b]) => a - b));
}

export function handoffIterations(
  points: readonly Pick<IterationPoint, "number" | "handoffTrigger">[],
  events: readonly ChartEvent[] = [],
): number[] {
  return [...handoffTriggers(points, events).keys()];
}

export interface HandoffSummary {
  afterIteration: number;
  trigger: string;
  before: number | null;
  after: number | null;
}

/** The score just before and just after each fresh context: did the handoff help? */
export function summarizeHandoffs(
  points: readonly IterationPoint[],
  events: readonly ChartEvent[] = [],
): HandoffSummary[] {
  const series = lastAttempts(points);
  const mean = (n: number) => series.find((p) => p.number === n)?.meanScore ?? null;
  return [...handoffTriggers(series, events).entries()].map(([n, trigger]) => ({
    afterIteration: n,
    trigger,
    before: mean(n),
    after: mean(n + 1),
  }));
}

// The plain-language summary and the data table of each chart, shared by the
// loop page (Recharts) and the shared report (server SVG) so a screen reader
// hears the same thing on both.
import type { CostChart, CostForecastInput, TokenRow } from "@/lib/charts/cost-chart";
import type { HealthBand } from "@/lib/charts/health-timeline";
import { scorerKey, type ScoreChart } from "@/lib/charts/score-chart";
import { formatScore, formatTokens, formatUsd } from "@/components/loops/format";

export interface ChartTableData {
  columns: string[];
  rows: (string | number)[][];
}

/** What a chart's frame states: its summary, its table, and the x of each point it draws (how many, the last). */
export type ChartFacts = [summary: string, table: ChartTableData, drawn: readonly number[]];

export function scoreSummary(chart: ScoreChart): string {
  const last = chart.rows.at(-1);
  if (!last) return "no iterations yet";
  return `best ${formatScore(last.best)}, last mean ${formatScore(last.mean)}${chart.threshold ? `, target ${chart.threshold}` : ""}`;
}

export function scoreTable(chart: ScoreChart): ChartTableData {
  return {
    columns: ["Iteration", "Mean", "Best so far", ...chart.scorers],
    rows: chart.rows.map((r) => [
      r.iteration,
      formatScore(r.mean),
      formatScore(r.best),
      ...chart.scorers.map((s) => formatScore(r[scorerKey(s)])),
    ]),
  };
}

export function costSummary(chart: CostChart, forecast: Pick<CostForecastInput, "projectedTotalCost"> | null): string {
  // The chart's own end (never below the spend), else the forecast's (a chart with nothing left to run).
  const end = chart.forecastEnd?.total ?? (forecast ? Math.max(chart.total, forecast.projectedTotalCost) : null);
  return `${formatUsd(chart.total)} spent${chart.budget ? ` of ${formatUsd(chart.budget)}` : ""}${end !== null ? `, ≈ ${formatUsd(end)} at the end` : ""}`;
}

export function costTable(chart: CostChart): ChartTableData {
  return {
    columns: ["Iteration", "Spent", "Forecast"],
    rows: chart.rows.map((r) => [
      r.iteration,
      r.cost == null ? "—" : formatUsd(r.cost),
      r.forecast == null ? "—" : formatUsd(r.forecast),
    ]),
  };
}

export function tokenSummary(rows: TokenRow[]): string {
  return `${formatTokens(rows.reduce((n, r) => n + r.input + r.output + r.cache, 0))} tokens in total`;
}

export function tokenTable(rows: TokenRow[]): ChartTableData {
  return {
    columns: ["Iteration", "In", "Out", "Cache"],
    rows: rows.map((r) => [r.iteration, formatTokens(r.input), formatTokens(r.output), formatTokens(r.cache)]),
  };
}

export const healthSummary = (bands: HealthBand[]) =>
  bands.length === 0 ? "no iterations yet" : bands.map((b) => `${b.state} ${b.from}–${b.to}`).join(", ");

export function healthTable(bands: HealthBand[]): ChartTableData {
  return { columns: ["Iterations", "Health"], rows: bands.map((b) => [`${b.from}–${b.to}`, b.state]) };
}

export const scoreFacts = (chart: ScoreChart): ChartFacts => [
  scoreSummary(chart),
  scoreTable(chart),
  chart.rows.map((r) => r.iteration),
];

/** Only the iterations that spent: the forecast's rows are drawn lightly, not counted. */
export function costFacts(
  chart: CostChart,
  forecast: Pick<CostForecastInput, "projectedTotalCost"> | null,
): ChartFacts {
  const spent = chart.rows.filter((r) => r.cost !== null && r.iteration > 0);
  return [costSummary(chart, forecast), costTable(chart), spent.map((r) => r.iteration)];
}

export const tokenFacts = (rows: TokenRow[]): ChartFacts => [
  tokenSummary(rows),
  tokenTable(rows),
  rows.map((r) => r.iteration),
];

/** A band is one point, at the iteration it reaches. */
export const healthFacts = (bands: HealthBand[]): ChartFacts => [
  healthSummary(bands),
  healthTable(bands),
  bands.map((b) => b.to),
];

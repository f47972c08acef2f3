// One palette for every chart, in both themes: mid-tone colours that keep a
// 3:1 contrast on the light and the dark surface. The fixed series (mean,
// best so far, threshold, budget, forecast, handoff) each have their own
// colour; scorers take the rest in order, so no scorer shares a colour with
// a fixed series (chart-theme.test.ts checks it).
export const SERIES_COLORS = {
  mean: "#6366f1",
  best: "#0891b2",
  threshold: "#059669",
  budget: "#e11d48",
  forecast: "#d97706",
  handoff: "#9333ea",
} as const;
export const SCORER_COLORS = ["#ea580c", "#db2777", "#65a30d", "#2563eb", "#a16207", "#0f766e", "#c026d3", "#78716c"];
export const scorerColor = (index: number) => SCORER_COLORS[index % SCORER_COLORS.length]!;
/** Kept for the shared report's SVG charts: scorers first, in the same order. */
export const PALETTE = SCORER_COLORS;
export const MEAN = SERIES_COLORS.mean;
export const BEST = SERIES_COLORS.best;
export const THRESHOLD = SERIES_COLORS.threshold;
export const BUDGET = SERIES_COLORS.budget;
export const FORECAST = SERIES_COLORS.forecast;
export const HANDOFF = SERIES_COLORS.handoff;
export const TOKEN_COLORS = { input: SCORER_COLORS[3]!, output: SCORER_COLORS[6]!, cache: SERIES_COLORS.best };
export const GRID = "#94a3b840";
// Axis, legend and label text take their slate colour per theme from globals.css (.recharts-* rules).
export const AXIS = { fontSize: 11 };
/** Legend: slate text (globals.css) with the series colour as the swatch only. */
// Recharts places the legend at the chart's left margin with the width between
// the margins; our charts use negative left margins (to tuck the Y axis in), so
// the legend started left of the card and its wrapped rows ran past it. Pin it
// to the chart's own box instead.
export const LEGEND = { wrapperStyle: { fontSize: 12, left: 0, width: "100%", boxSizing: "border-box" as const } };

export const HEALTH_COLORS: Record<string, string> = {
  healthy: "#10b981",
  degraded: "#f59e0b",
  stuck: "#f97316",
  failing: "#e11d48",
  terminated: "#7f1d1d",
  unknown: "#94a3b8",
};

export const TOOLTIP = {
  contentStyle: { borderRadius: 8, border: "1px solid #cbd5e1", fontSize: 12, color: "#0f172a" },
  labelFormatter: (label: unknown) => `Iteration ${String(label)}`,
};
/** The score chart's plateau spans and regression dots (drawn, and named in its notes). */
export const PLATEAU = "#d97706";
export const REGRESSION = "#e11d48";

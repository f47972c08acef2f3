// Colours that keep their contrast on both the light and the dark surface.
export const PALETTE = ["#0ea5e9", "#a855f7", "#f59e0b", "#14b8a6", "#ec4899", "#84cc16", "#f97316", "#6366f1"];
export const MEAN = "#6366f1";
export const BEST = "#0ea5e9";
export const THRESHOLD = "#10b981";
export const BUDGET = "#e11d48";
export const FORECAST = "#f59e0b";
export const HANDOFF = "#8b5cf6";
export const GRID = "#94a3b840";
// Axis, legend and label text take their slate colour per theme from globals.css (.recharts-* rules).
export const AXIS = { fontSize: 11 };
/** Legend: slate text (globals.css) with the series colour as the swatch only. */
export const LEGEND = { wrapperStyle: { fontSize: 12 } };

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

/** The x range of iteration charts, padded so the first and last points are not on the frame. */
export function iterationDomain(iterations: number[]): [number, number] {
  if (iterations.length === 0) return [0, 1];
  return [Math.min(...iterations) - 0.5, Math.max(...iterations) + 0.5];
}

/** Whole-number iteration ticks inside the data range (at most ~8 of them). */
export function iterationTicks(iterations: number[]): number[] {
  if (iterations.length === 0) return [];
  const lo = Math.min(...iterations);
  const hi = Math.max(...iterations);
  const step = Math.max(1, Math.ceil((hi - lo) / 8));
  const ticks: number[] = [];
  for (let t = lo; t <= hi; t += step) ticks.push(t);
  return ticks;
}

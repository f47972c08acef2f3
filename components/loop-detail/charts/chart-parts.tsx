// The markup the loop page's chart drawings share, built in one place so the
// charts keep one look: the dashed grid, the iteration x axis they line up
// on, the series drawn as points on lines, the labelled target lines and the
// handoff lines. Plain functions returning Recharts elements
// (not components), so each lands in the chart exactly as if written inline.
import { CartesianGrid, Line, ReferenceLine, XAxis } from "recharts";
import type { IterationWindow } from "@/lib/charts/chart-window";
import { AXIS, GRID, HANDOFF } from "./chart-theme";

/** The dashed grid; `vertical: false` / `horizontal: false` leave out one direction. */
export const chartGrid = (lines: { horizontal?: boolean; vertical?: boolean } = {}) => (
  <CartesianGrid stroke={GRID} strokeDasharray="3 3" {...lines} />
);

/**
 * The iteration x axis every iteration chart shares (one window, same ticks).
 * `clip`: points outside the window are cut off rather than widening it.
 */
export const iterationAxis = (xRange: IterationWindow, { clip = true }: { clip?: boolean } = {}) => (
  <XAxis
    dataKey="iteration"
    type="number"
    domain={xRange.domain}
    allowDataOverflow={clip}
    allowDecimals={false}
    ticks={xRange.ticks}
    tick={AXIS}
  />
);

/**
 * A dashed line where the next iteration started from a fresh context. On a
 * number axis it sits between the two iterations (`between`); on a bar
 * chart's category axis, on the iteration itself.
 */
export const handoffLines = (handoffs: number[], { between = true, glyph = false } = {}) =>
  handoffs.map((h) => (
    <ReferenceLine
      key={h}
      x={between ? h + 0.5 : h}
      stroke={HANDOFF}
      strokeDasharray="2 3"
      label={glyph ? { value: "⇄", position: "top", fill: HANDOFF, fontSize: 12 } : undefined}
    />
  ));

/**
 * A series as points joined by straight segments, or by steps (`step`) for a
 * value that holds until the next point. `filled` dots take the line's colour
 * (else Recharts' hollow white); a missing value is a gap unless `bridge`.
 */
export const pointLine = ({
  dataKey,
  name,
  color,
  width = 2,
  r = 2,
  filled = false,
  step = false,
  bridge = false,
}: {
  dataKey: string;
  name: string;
  color: string;
  width?: number;
  r?: number;
  filled?: boolean;
  step?: boolean;
  bridge?: boolean;
}) => (
  <Line
    key={dataKey}
    type={step ? "stepAfter" : "linear"}
    dataKey={dataKey}
    name={name}
    stroke={color}
    strokeWidth={width}
    dot={filled ? { r, fill: color } : { r }}
    connectNulls={bridge}
    isAnimationActive={false}
  />
);

/** A dashed horizontal line at a target value (threshold, budget), named at its top left in its colour. */
export const targetLine = (y: number, label: string, color: string) => (
  <ReferenceLine
    y={y}
    stroke={color}
    strokeDasharray="6 3"
    label={{ value: label, position: "insideTopLeft", fontSize: 11, fill: color }}
  />
);

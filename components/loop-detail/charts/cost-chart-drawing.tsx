"use client";
// The cost chart's drawing, in a chunk of its own with Recharts: the page
// shows the chart's frame and summary first and loads this when it is drawn.
import { ComposedChart, Legend, Line, ReferenceLine, ResponsiveContainer, Tooltip, YAxis } from "recharts";
import type { CostScale, IterationWindow } from "@/lib/charts/chart-window";
import type { CostRow } from "@/lib/charts/cost-chart";
import { formatUsd } from "@/components/loops/format";
import { AXIS, BUDGET, FORECAST, LEGEND, MEAN, TOOLTIP } from "./chart-theme";
import { chartGrid, handoffLines, iterationAxis, pointLine, targetLine } from "./chart-parts";

export default function CostChartDrawing({
  rows,
  xRange,
  scale,
  exhaustedOnChart,
  handoffs,
}: {
  rows: CostRow[];
  xRange: IterationWindow;
  scale: CostScale;
  exhaustedOnChart: number | null;
  handoffs: number[];
}) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <ComposedChart data={rows} margin={{ top: 8, right: 12, bottom: 0, left: -4 }} accessibilityLayer={false}>
        {chartGrid()}
        {iterationAxis(xRange)}
        <YAxis
          domain={[0, scale.top]}
          allowDataOverflow
          tick={AXIS}
          tickFormatter={(v: number) => formatUsd(v)}
          width={60}
        />
        <Tooltip {...TOOLTIP} formatter={(v) => (typeof v === "number" ? formatUsd(v) : String(v))} />
        <Legend {...LEGEND} />
        {pointLine({ dataKey: "cost", name: "spent", color: MEAN })}
        <Line
          type="linear"
          dataKey="forecast"
          name="forecast"
          stroke={FORECAST}
          strokeOpacity={0.55}
          strokeWidth={1.5}
          strokeDasharray="4 4"
          dot={false}
          connectNulls
          isAnimationActive={false}
        />
        {scale.budgetLine !== null && targetLine(scale.budgetLine, `budget ${formatUsd(scale.budgetLine)}`, BUDGET)}
        {scale.offScaleLabel && (
          <ReferenceLine
            y={scale.top}
            stroke={BUDGET}
            strokeOpacity={0.4}
            strokeDasharray="2 4"
            label={{ value: scale.offScaleLabel, position: "insideTopRight", fontSize: 11, fill: BUDGET }}
          />
        )}
        {exhaustedOnChart !== null && (
          <ReferenceLine
            x={exhaustedOnChart}
            stroke={BUDGET}
            label={{ value: "budget out", position: "top", fontSize: 11, fill: BUDGET }}
          />
        )}
        {handoffLines(handoffs)}
      </ComposedChart>
    </ResponsiveContainer>
  );
}

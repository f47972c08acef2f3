"use client";
// The score chart's drawing, in a chunk of its own with Recharts: the page
// shows the chart's frame, summary and notes first and loads this when it is drawn.
import {
  Area,
  ComposedChart,
  Legend,
  Line,
  ReferenceArea,
  ReferenceDot,
  ResponsiveContainer,
  Tooltip,
  YAxis,
} from "recharts";
import { useMemo } from "react";
import type { IterationWindow } from "@/lib/charts/chart-window";
import { scorerKey, type ScoreChart } from "@/lib/charts/score-chart";
import { AXIS, BEST, LEGEND, MEAN, PLATEAU, REGRESSION, scorerColor, THRESHOLD, TOOLTIP } from "./chart-theme";
import { chartGrid, handoffLines, iterationAxis, pointLine, targetLine } from "./chart-parts";

export default function ScoreChartDrawing({
  chart,
  xRange,
  selection,
}: {
  chart: ScoreChart;
  xRange: IterationWindow;
  selection?: { from: number; to: number } | null;
}) {
  const meanAt = useMemo(() => new Map(chart.rows.map((r) => [r.iteration, r.mean])), [chart]);
  return (
    <ResponsiveContainer width="100%" height="100%">
      <ComposedChart data={chart.rows} margin={{ top: 8, right: 12, bottom: 0, left: -12 }} accessibilityLayer={false}>
        {chartGrid()}
        {iterationAxis(xRange, { clip: false })}
        <YAxis domain={[0, 1]} tick={AXIS} tickCount={6} />
        <Tooltip {...TOOLTIP} formatter={(v) => (typeof v === "number" ? v.toFixed(3) : String(v))} />
        <Legend {...LEGEND} />
        {chart.markers.map((m) =>
          m.kind === "plateau" && m.from !== undefined && m.to !== undefined ? (
            <ReferenceArea
              key={`p${m.from}`}
              x1={m.from - 0.5}
              x2={m.to + 0.5}
              y1={0}
              y2={1}
              fill={PLATEAU}
              fillOpacity={0.08}
              strokeOpacity={0}
            />
          ) : null,
        )}
        <Area
          type="stepAfter"
          dataKey="best"
          name="best so far"
          stroke={BEST}
          strokeOpacity={0.6}
          strokeDasharray="4 2"
          fill={BEST}
          fillOpacity={0.08}
          isAnimationActive={false}
        />
        {chart.scorers.map((name, i) => (
          <Line
            key={name}
            type="stepAfter"
            dataKey={scorerKey(name)}
            name={name}
            stroke={scorerColor(i)}
            strokeWidth={1.25}
            strokeOpacity={0.8}
            dot={{ r: 2, fill: scorerColor(i), strokeWidth: 0 }}
            connectNulls
            isAnimationActive={false}
          />
        ))}
        {pointLine({ dataKey: "mean", name: "mean", color: MEAN, width: 2.5, r: 3, filled: true, bridge: true })}
        {chart.threshold !== null && targetLine(chart.threshold, "threshold", THRESHOLD)}
        {handoffLines(chart.handoffs, { glyph: true })}
        {selection && selection.from !== selection.to && (
          <ReferenceArea
            x1={selection.from}
            x2={selection.to}
            y1={0}
            y2={1}
            fill={MEAN}
            fillOpacity={0.12}
            strokeOpacity={0}
          />
        )}
        {chart.markers.map((m) => {
          const y = meanAt.get(m.iteration);
          return m.kind !== "regression" || y == null ? null : (
            <ReferenceDot key={`r${m.iteration}`} x={m.iteration} y={y} r={5} fill={REGRESSION} stroke="white" />
          );
        })}
      </ComposedChart>
    </ResponsiveContainer>
  );
}

"use client";
import {
  Area,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ReferenceDot,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { memo, useMemo } from "react";
import { prepareScoreChart, scorerKey, summarizeHandoffs } from "@/lib/charts/score-chart";
import type { ChartEvent, IterationPoint } from "@/lib/charts/types";
import { formatScore } from "@/components/loops/format";
import {
  AXIS,
  BEST,
  GRID,
  HANDOFF,
  iterationDomain,
  iterationTicks,
  LEGEND,
  MEAN,
  PALETTE,
  THRESHOLD,
  TOOLTIP,
} from "./chart-theme";
import { ChartFrame } from "./chart-frame";
import { scoreSummary, scoreTable } from "./chart-summaries";

export const ScoreChart = memo(function ScoreChart({
  series,
  threshold,
  events,
}: {
  series: IterationPoint[];
  threshold: number | null;
  events: ChartEvent[];
}) {
  const chart = useMemo(() => prepareScoreChart(series, { threshold, events }), [series, threshold, events]);
  const handoffs = useMemo(() => summarizeHandoffs(series, events), [series, events]);
  const iterations = chart.rows.map((r) => r.iteration);
  return (
    <ChartFrame
      testId="score-chart"
      title="Score per iteration"
      summary={scoreSummary(chart)}
      table={scoreTable(chart)}
      points={chart.rows.length}
      empty="Scores appear here after the first iteration."
      footer={
        (chart.markers.length > 0 || handoffs.length > 0) && (
          <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600 dark:text-slate-400">
            {handoffs.map((h) => (
              <li key={`h${h.afterIteration}`} data-testid="handoff-marker">
                <span style={{ color: HANDOFF }}>⇄</span> fresh context after #{h.afterIteration} (
                {h.trigger.replace(/_/g, " ")}): {formatScore(h.before)} → {formatScore(h.after)}
              </li>
            ))}
            {chart.markers.map((m) => (
              <li key={`${m.kind}${m.iteration}`} data-testid={`${m.kind}-marker`}>
                <span className={m.kind === "plateau" ? "text-amber-600" : "text-rose-600"}>●</span> {m.kind} at #
                {m.iteration}: {m.label}
              </li>
            ))}
          </ul>
        )
      }
    >
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart
          data={chart.rows}
          margin={{ top: 8, right: 12, bottom: 0, left: -12 }}
          accessibilityLayer={false}
        >
          <CartesianGrid stroke={GRID} strokeDasharray="3 3" />
          <XAxis
            dataKey="iteration"
            type="number"
            domain={iterationDomain(iterations)}
            allowDecimals={false}
            ticks={iterationTicks(iterations)}
            tick={AXIS}
          />
          <YAxis domain={[0, 1]} tick={AXIS} tickCount={6} />
          <Tooltip {...TOOLTIP} formatter={(v) => (typeof v === "number" ? v.toFixed(3) : String(v))} />
          <Legend {...LEGEND} />
          <Area
            type="stepAfter"
            dataKey="best"
            name="best so far"
            stroke={BEST}
            strokeOpacity={0.5}
            fill={BEST}
            fillOpacity={0.1}
            isAnimationActive={false}
          />
          {chart.scorers.map((name, i) => (
            <Line
              key={name}
              type="monotone"
              dataKey={scorerKey(name)}
              name={name}
              stroke={PALETTE[i % PALETTE.length]}
              strokeWidth={1.5}
              dot={false}
              connectNulls
              isAnimationActive={false}
            />
          ))}
          <Line
            type="monotone"
            dataKey="mean"
            name="mean"
            stroke={MEAN}
            strokeWidth={2.5}
            dot={{ r: 2.5 }}
            connectNulls
            isAnimationActive={false}
          />
          {chart.threshold !== null && (
            <ReferenceLine
              y={chart.threshold}
              stroke={THRESHOLD}
              strokeDasharray="6 3"
              label={{ value: "threshold", position: "insideTopLeft", fontSize: 11, fill: THRESHOLD }}
            />
          )}
          {chart.handoffs.map((h) => (
            <ReferenceLine
              key={h}
              x={h + 0.5}
              stroke={HANDOFF}
              strokeDasharray="2 3"
              label={{ value: "⇄", position: "top", fill: HANDOFF, fontSize: 12 }}
            />
          ))}
          {chart.markers.map((m) => {
            const y = chart.rows.find((r) => r.iteration === m.iteration)?.mean;
            return y == null ? null : (
              <ReferenceDot
                key={`${m.kind}${m.iteration}`}
                x={m.iteration}
                y={y}
                r={5}
                fill={m.kind === "plateau" ? "#f59e0b" : "#e11d48"}
                stroke="white"
              />
            );
          })}
        </ComposedChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
});

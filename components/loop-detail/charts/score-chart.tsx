"use client";
// Scores are discrete per iteration: each scorer is drawn as points joined
// by steps (never a smoothed curve), the mean as points on straight
// segments, the best so far as a light stepped envelope. Plateaus are shaded
// spans, regressions red dots; both are listed under the chart.
import {
  Area,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ReferenceArea,
  ReferenceDot,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { memo, useMemo } from "react";
import type { IterationWindow } from "@/lib/charts/chart-window";
import { prepareScoreChart, scorerKey, summarizeHandoffs } from "@/lib/charts/score-chart";
import type { ChartEvent, IterationPoint } from "@/lib/charts/types";
import { formatScore } from "@/components/loops/format";
import { AXIS, BEST, GRID, HANDOFF, LEGEND, MEAN, scorerColor, THRESHOLD, TOOLTIP } from "./chart-theme";
import { ChartFrame } from "./chart-frame";
import { scoreSummary, scoreTable } from "./chart-summaries";
import { MarkerList } from "./marker-list";

const PLATEAU = "#d97706";
const REGRESSION = "#e11d48";

export const ScoreChart = memo(function ScoreChart({
  series,
  threshold,
  events,
  xRange,
  plateauAfter,
  selection,
}: {
  series: IterationPoint[];
  threshold: number | null;
  events: ChartEvent[];
  xRange: IterationWindow;
  /** The loop's own "no progress" limit, so a plateau is marked before the loop stops on it. */
  plateauAfter?: number;
  /** Iterations being selected by a drag across the chart (zooming in), shaded. */
  selection?: { from: number; to: number } | null;
}) {
  const chart = useMemo(
    () => prepareScoreChart(series, { threshold, events, plateauAfter }),
    [series, threshold, events, plateauAfter],
  );
  const handoffs = useMemo(() => summarizeHandoffs(series, events), [series, events]);
  const meanAt = useMemo(() => new Map(chart.rows.map((r) => [r.iteration, r.mean])), [chart]);
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
          <MarkerList label="Score notes">
            {chart.markers.map((m) => (
              <li key={`${m.kind}${m.iteration}`} data-testid={`${m.kind}-marker`}>
                <span style={{ color: m.kind === "plateau" ? PLATEAU : REGRESSION }}>
                  {m.kind === "plateau" ? "▬" : "▼"}
                </span>{" "}
                {m.kind} {m.kind === "plateau" && m.from !== undefined ? `#${m.from}–#${m.to}` : `at #${m.iteration}`}:{" "}
                {m.label}
              </li>
            ))}
            {handoffs.map((h) => (
              <li key={`h${h.afterIteration}`} data-testid="handoff-marker">
                <span style={{ color: HANDOFF }}>⇄</span> fresh context after #{h.afterIteration} (
                {h.trigger.replace(/_/g, " ")}): {formatScore(h.before)} → {formatScore(h.after)}
              </li>
            ))}
          </MarkerList>
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
            domain={xRange.domain}
            allowDecimals={false}
            ticks={xRange.ticks}
            tick={AXIS}
          />
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
          <Line
            type="linear"
            dataKey="mean"
            name="mean"
            stroke={MEAN}
            strokeWidth={2.5}
            dot={{ r: 3, fill: MEAN }}
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
    </ChartFrame>
  );
});

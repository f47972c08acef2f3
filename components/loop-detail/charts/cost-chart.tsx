"use client";
// Spend so far on a scale that fits it, the forecast drawn lightly into the
// headroom right of the last iteration (its end value said in words), and
// the budget as a line when it is near, or named at the top edge when it is
// far above ("budget $20 ↑ off scale"), so $0.10 of spend stays readable.
import {
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { memo, useMemo } from "react";
import { costScale, type IterationWindow } from "@/lib/charts/chart-window";
import { prepareCostChart, type CostForecastInput } from "@/lib/charts/cost-chart";
import { handoffIterations } from "@/lib/charts/score-chart";
import type { ChartEvent, IterationPoint } from "@/lib/charts/types";
import { formatUsd } from "@/components/loops/format";
import { costSummary, costTable } from "./chart-summaries";
import { AXIS, BUDGET, FORECAST, GRID, HANDOFF, LEGEND, MEAN, TOOLTIP } from "./chart-theme";
import { ChartFrame } from "./chart-frame";

export const CostChart = memo(function CostChart({
  series,
  budget,
  forecast,
  events,
  xRange,
}: {
  series: IterationPoint[];
  budget: number | null;
  forecast: CostForecastInput | null;
  events: ChartEvent[];
  xRange: IterationWindow;
}) {
  const chart = useMemo(
    () => prepareCostChart(series, { budget, forecast, until: xRange.edge }),
    [series, budget, forecast, xRange.edge],
  );
  const handoffs = useMemo(() => handoffIterations(series, events), [series, events]);
  const actual = chart.rows.filter((r) => r.cost !== null && r.iteration > 0).length;
  const drawnMax = chart.rows.reduce((m, r) => Math.max(m, r.cost ?? 0, r.forecast ?? 0), 0);
  const scale = costScale(drawnMax, chart.budget, formatUsd);
  const exhaustedOnChart = chart.exhaustedAt !== null && chart.exhaustedAt <= xRange.edge ? chart.exhaustedAt : null;
  return (
    <ChartFrame
      testId="cost-chart"
      title="Cumulative cost"
      summary={costSummary(chart, forecast)}
      table={costTable(chart)}
      points={actual}
      empty="Cost appears here after the first iteration."
      footer={
        (scale.offScaleLabel || chart.forecastEnd) && (
          <p className="mt-2 flex flex-wrap gap-x-4 text-xs text-slate-600 dark:text-slate-400">
            {scale.offScaleLabel && (
              <span data-testid="budget-off-scale">
                <span style={{ color: BUDGET }}>┅</span> {scale.offScaleLabel}
              </span>
            )}
            {chart.forecastEnd && (
              <span data-testid="forecast-end">
                <span style={{ color: FORECAST }}>┄</span> forecast ≈ {formatUsd(chart.forecastEnd.total)} at #
                {chart.forecastEnd.iteration}
                {chart.exhaustedAt !== null ? `; budget runs out at #${chart.exhaustedAt}` : ""}
              </span>
            )}
          </p>
        )
      }
    >
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={chart.rows} margin={{ top: 8, right: 12, bottom: 0, left: -4 }} accessibilityLayer={false}>
          <CartesianGrid stroke={GRID} strokeDasharray="3 3" />
          <XAxis
            dataKey="iteration"
            type="number"
            domain={xRange.domain}
            allowDataOverflow
            allowDecimals={false}
            ticks={xRange.ticks}
            tick={AXIS}
          />
          <YAxis
            domain={[0, scale.top]}
            allowDataOverflow
            tick={AXIS}
            tickFormatter={(v: number) => formatUsd(v)}
            width={60}
          />
          <Tooltip {...TOOLTIP} formatter={(v) => (typeof v === "number" ? formatUsd(v) : String(v))} />
          <Legend {...LEGEND} />
          <Line
            type="linear"
            dataKey="cost"
            name="spent"
            stroke={MEAN}
            strokeWidth={2}
            dot={{ r: 2 }}
            connectNulls={false}
            isAnimationActive={false}
          />
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
          {scale.budgetLine !== null && (
            <ReferenceLine
              y={scale.budgetLine}
              stroke={BUDGET}
              strokeDasharray="6 3"
              label={{
                value: `budget ${formatUsd(scale.budgetLine)}`,
                position: "insideTopLeft",
                fontSize: 11,
                fill: BUDGET,
              }}
            />
          )}
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
          {handoffs.map((h) => (
            <ReferenceLine key={h} x={h + 0.5} stroke={HANDOFF} strokeDasharray="2 3" />
          ))}
        </ComposedChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
});

"use client";
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
import { prepareCostChart, type CostForecastInput } from "@/lib/charts/cost-chart";
import { handoffIterations } from "@/lib/charts/score-chart";
import type { ChartEvent, IterationPoint } from "@/lib/charts/types";
import { formatUsd } from "@/components/loops/format";
import { costSummary, costTable } from "./chart-summaries";
import {
  AXIS,
  BUDGET,
  FORECAST,
  GRID,
  HANDOFF,
  iterationDomain,
  iterationTicks,
  LEGEND,
  MEAN,
  TOOLTIP,
} from "./chart-theme";
import { ChartFrame } from "./chart-frame";

export const CostChart = memo(function CostChart({
  series,
  budget,
  forecast,
  events,
}: {
  series: IterationPoint[];
  budget: number | null;
  forecast: CostForecastInput | null;
  events: ChartEvent[];
}) {
  const chart = useMemo(() => prepareCostChart(series, { budget, forecast }), [series, budget, forecast]);
  const handoffs = useMemo(() => handoffIterations(series, events), [series, events]);
  const iterations = chart.rows.map((r) => r.iteration);
  const actual = chart.rows.filter((r) => r.cost !== null && r.iteration > 0).length;
  const top =
    Math.max(chart.budget ?? 0, ...chart.rows.map((r) => Math.max(r.cost ?? 0, r.forecast ?? 0))) * 1.1 || 0.01;
  return (
    <ChartFrame
      testId="cost-chart"
      title="Cumulative cost"
      summary={costSummary(chart, forecast)}
      table={costTable(chart)}
      points={actual}
      empty="Cost appears here after the first iteration."
    >
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={chart.rows} margin={{ top: 8, right: 12, bottom: 0, left: -4 }} accessibilityLayer={false}>
          <CartesianGrid stroke={GRID} strokeDasharray="3 3" />
          <XAxis
            dataKey="iteration"
            type="number"
            domain={iterationDomain(iterations)}
            allowDecimals={false}
            ticks={iterationTicks(iterations)}
            tick={AXIS}
          />
          <YAxis domain={[0, top]} tick={AXIS} tickFormatter={(v: number) => formatUsd(v)} width={56} />
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
            strokeWidth={2}
            strokeDasharray="5 4"
            dot={false}
            connectNulls
            isAnimationActive={false}
          />
          {chart.budget !== null && (
            <ReferenceLine
              y={chart.budget}
              stroke={BUDGET}
              strokeDasharray="6 3"
              label={{ value: "budget", position: "insideTopLeft", fontSize: 11, fill: BUDGET }}
            />
          )}
          {chart.exhaustedAt !== null && (
            <ReferenceLine
              x={chart.exhaustedAt}
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

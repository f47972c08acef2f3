"use client";
import { CartesianGrid, ComposedChart, Legend, Line, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { prepareCostChart, type CostForecastInput } from "@/lib/charts/cost-chart";
import { handoffIterations } from "@/lib/charts/score-chart";
import type { ChartEvent, IterationPoint } from "@/lib/charts/types";
import { formatUsd } from "@/components/loops/format";
import { AXIS, BUDGET, FORECAST, GRID, HANDOFF, iterationDomain, iterationTicks, MEAN, TOOLTIP } from "./chart-theme";
import { ChartFrame } from "./chart-frame";

export function CostChart({ series, budget, forecast, events }: { series: IterationPoint[]; budget: number | null; forecast: CostForecastInput | null; events: ChartEvent[] }) {
  const chart = prepareCostChart(series, { budget, forecast });
  const actual = chart.rows.filter((r) => r.cost !== null && r.iteration > 0).length;
  const top = Math.max(chart.budget ?? 0, ...chart.rows.map((r) => Math.max(r.cost ?? 0, r.forecast ?? 0))) * 1.1 || 0.01;
  const summary = `${formatUsd(chart.total)} spent${chart.budget ? ` of ${formatUsd(chart.budget)}` : ""}${forecast ? `, ≈ ${formatUsd(forecast.projectedTotalCost)} at the end` : ""}`;
  return (
    <ChartFrame testId="cost-chart" title="Cumulative cost" summary={summary} points={actual} empty="Cost appears here after the first iteration.">
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={chart.rows} margin={{ top: 8, right: 12, bottom: 0, left: -4 }}>
          <CartesianGrid stroke={GRID} strokeDasharray="3 3" />
          <XAxis dataKey="iteration" type="number" domain={iterationDomain(chart.rows.map((r) => r.iteration))} allowDecimals={false} ticks={iterationTicks(chart.rows.map((r) => r.iteration))} tick={AXIS} />
          <YAxis domain={[0, top]} tick={AXIS} tickFormatter={(v: number) => formatUsd(v)} width={56} />
          <Tooltip {...TOOLTIP} formatter={(v) => (typeof v === "number" ? formatUsd(v) : String(v))} />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          <Line type="linear" dataKey="cost" name="spent" stroke={MEAN} strokeWidth={2} dot={{ r: 2 }} connectNulls={false} isAnimationActive={false} />
          <Line type="linear" dataKey="forecast" name="forecast" stroke={FORECAST} strokeWidth={2} strokeDasharray="5 4" dot={false} connectNulls isAnimationActive={false} />
          {chart.budget !== null && <ReferenceLine y={chart.budget} stroke={BUDGET} strokeDasharray="6 3" label={{ value: "budget", position: "insideTopLeft", fontSize: 11, fill: BUDGET }} />}
          {chart.exhaustedAt !== null && <ReferenceLine x={chart.exhaustedAt} stroke={BUDGET} label={{ value: "budget out", position: "top", fontSize: 11, fill: BUDGET }} />}
          {handoffIterations(series, events).map((h) => (
            <ReferenceLine key={h} x={h + 0.5} stroke={HANDOFF} strokeDasharray="2 3" />
          ))}
        </ComposedChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}

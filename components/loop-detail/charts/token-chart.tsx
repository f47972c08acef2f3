"use client";
import { Bar, BarChart, CartesianGrid, Legend, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { prepareTokenChart } from "@/lib/charts/cost-chart";
import { handoffIterations } from "@/lib/charts/score-chart";
import type { ChartEvent, IterationPoint } from "@/lib/charts/types";
import { formatTokens } from "@/components/loops/format";
import { AXIS, GRID, HANDOFF, TOOLTIP } from "./chart-theme";
import { ChartFrame } from "./chart-frame";

export function TokenChart({ series, events }: { series: IterationPoint[]; events: ChartEvent[] }) {
  const rows = prepareTokenChart(series);
  const total = rows.reduce((n, r) => n + r.input + r.output + r.cache, 0);
  return (
    <ChartFrame testId="token-chart" title="Tokens per iteration" summary={`${formatTokens(total)} tokens in total`} points={rows.length} empty="Token use appears here after the first iteration.">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={rows} margin={{ top: 8, right: 12, bottom: 0, left: -8 }}>
          <CartesianGrid stroke={GRID} strokeDasharray="3 3" />
          <XAxis dataKey="iteration" tick={AXIS} />
          <YAxis tick={AXIS} tickFormatter={(v: number) => formatTokens(v)} />
          <Tooltip {...TOOLTIP} formatter={(v) => (typeof v === "number" ? formatTokens(v) : String(v))} />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          <Bar dataKey="input" name="in" stackId="t" fill="#0ea5e9" isAnimationActive={false} />
          <Bar dataKey="output" name="out" stackId="t" fill="#a855f7" isAnimationActive={false} />
          <Bar dataKey="cache" name="cache" stackId="t" fill="#14b8a6" isAnimationActive={false} />
          {handoffIterations(series, events).map((h) => (
            <ReferenceLine key={h} x={h} stroke={HANDOFF} strokeDasharray="2 3" />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}

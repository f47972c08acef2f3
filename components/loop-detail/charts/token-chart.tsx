"use client";
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { memo, useMemo } from "react";
import { prepareTokenChart } from "@/lib/charts/cost-chart";
import { handoffIterations } from "@/lib/charts/score-chart";
import type { ChartEvent, IterationPoint } from "@/lib/charts/types";
import { formatTokens } from "@/components/loops/format";
import { tokenSummary, tokenTable } from "./chart-summaries";
import { AXIS, GRID, HANDOFF, LEGEND, TOKEN_COLORS, TOOLTIP } from "./chart-theme";
import { ChartFrame } from "./chart-frame";

export const TokenChart = memo(function TokenChart({
  series,
  events,
}: {
  series: IterationPoint[];
  events: ChartEvent[];
}) {
  const rows = useMemo(() => prepareTokenChart(series), [series]);
  const handoffs = useMemo(() => handoffIterations(series, events), [series, events]);
  return (
    <ChartFrame
      testId="token-chart"
      title="Tokens per iteration"
      summary={tokenSummary(rows)}
      table={tokenTable(rows)}
      points={rows.length}
      empty="Token use appears here after the first iteration."
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={rows} margin={{ top: 8, right: 12, bottom: 0, left: -8 }} accessibilityLayer={false}>
          <CartesianGrid stroke={GRID} strokeDasharray="3 3" />
          <XAxis dataKey="iteration" tick={AXIS} />
          <YAxis tick={AXIS} tickFormatter={(v: number) => formatTokens(v)} />
          <Tooltip {...TOOLTIP} formatter={(v) => (typeof v === "number" ? formatTokens(v) : String(v))} />
          <Legend {...LEGEND} />
          <Bar dataKey="input" name="in" stackId="t" fill={TOKEN_COLORS.input} isAnimationActive={false} />
          <Bar dataKey="output" name="out" stackId="t" fill={TOKEN_COLORS.output} isAnimationActive={false} />
          <Bar dataKey="cache" name="cache" stackId="t" fill={TOKEN_COLORS.cache} isAnimationActive={false} />
          {handoffs.map((h) => (
            <ReferenceLine key={h} x={h} stroke={HANDOFF} strokeDasharray="2 3" />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
});

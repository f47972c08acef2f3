"use client";
// The token chart's drawing, in a chunk of its own with Recharts: the page
// shows the chart's frame and summary first and loads this when it is drawn.
import { Bar, BarChart, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { TokenRow } from "@/lib/charts/cost-chart";
import { formatTokens } from "@/components/loops/format";
import { AXIS, LEGEND, TOKEN_COLORS, TOOLTIP } from "./chart-theme";
import { chartGrid, handoffLines } from "./chart-parts";

export default function TokenChartDrawing({ rows, handoffs }: { rows: TokenRow[]; handoffs: number[] }) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart data={rows} margin={{ top: 8, right: 12, bottom: 0, left: -8 }} accessibilityLayer={false}>
        {chartGrid()}
        <XAxis dataKey="iteration" tick={AXIS} />
        <YAxis tick={AXIS} tickFormatter={(v: number) => formatTokens(v)} />
        <Tooltip {...TOOLTIP} formatter={(v) => (typeof v === "number" ? formatTokens(v) : String(v))} />
        <Legend {...LEGEND} />
        <Bar dataKey="input" name="in" stackId="t" fill={TOKEN_COLORS.input} isAnimationActive={false} />
        <Bar dataKey="output" name="out" stackId="t" fill={TOKEN_COLORS.output} isAnimationActive={false} />
        <Bar dataKey="cache" name="cache" stackId="t" fill={TOKEN_COLORS.cache} isAnimationActive={false} />
        {handoffLines(handoffs, { between: false })}
      </BarChart>
    </ResponsiveContainer>
  );
}

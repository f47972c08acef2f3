"use client";
// The score-per-dollar chart's drawing, in a chunk of its own with Recharts.
import { LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { ScoreSpendRow } from "@/lib/charts/score-per-dollar";
import { formatUsd } from "@/components/loops/format";
import { AXIS, BEST } from "./chart-theme";
import { chartGrid, pointLine } from "./chart-parts";

export default function ScoreSpendChartDrawing({ rows }: { rows: ScoreSpendRow[] }) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <LineChart data={rows} margin={{ top: 8, right: 12, bottom: 0, left: -12 }} accessibilityLayer={false}>
        {chartGrid()}
        <XAxis
          dataKey="spent"
          type="number"
          domain={[0, "dataMax"]}
          tick={AXIS}
          tickFormatter={(v: number) => formatUsd(v)}
        />
        <YAxis domain={[0, 1]} tick={AXIS} tickCount={6} />
        <Tooltip
          contentStyle={{ borderRadius: 8, border: "1px solid #cbd5e1", fontSize: 12, color: "#0f172a" }}
          labelFormatter={(v) => `spent ${typeof v === "number" ? formatUsd(v) : String(v)}`}
          formatter={(v) => (typeof v === "number" ? v.toFixed(3) : String(v))}
        />
        {pointLine({ dataKey: "best", name: "best so far", color: BEST, filled: true, step: true })}
      </LineChart>
    </ResponsiveContainer>
  );
}

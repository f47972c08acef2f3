"use client";
// The race chart's drawing, in a chunk of its own with Recharts (loaded when the chart is drawn).
import { Legend, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { contenderColor, contenderKey, type RaceChartRow } from "@/lib/charts/race-chart";
import { formatScore } from "@/components/loops/format";
import { AXIS, LEGEND, TOOLTIP } from "@/components/loop-detail/charts/chart-theme";
import { chartGrid, pointLine } from "@/components/loop-detail/charts/chart-parts";

export default function RaceScoreDrawing({
  rows,
  contenders,
}: {
  rows: RaceChartRow[];
  contenders: { id: string; name: string }[];
}) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <LineChart data={rows} margin={{ top: 8, right: 12, bottom: 0, left: -8 }} accessibilityLayer={false}>
        {chartGrid()}
        <XAxis dataKey="iteration" tick={AXIS} allowDecimals={false} />
        <YAxis tick={AXIS} domain={[0, 1]} tickFormatter={(v: number) => formatScore(v)} />
        <Tooltip {...TOOLTIP} formatter={(v) => (typeof v === "number" ? formatScore(v) : "—")} />
        <Legend {...LEGEND} />
        {contenders.map((c, i) =>
          pointLine({ dataKey: contenderKey(c.id), name: c.name, color: contenderColor(i), r: 3 }),
        )}
      </LineChart>
    </ResponsiveContainer>
  );
}

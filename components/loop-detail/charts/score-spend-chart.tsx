"use client";
// Score gained per dollar: the best score so far against cumulative spend.
// A curve that flattens while spend grows is a loop buying little; the rate
// overall and over the last few iterations says it in numbers.
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { memo, useMemo } from "react";
import { formatPerDollar, scorePerDollar } from "@/lib/charts/score-per-dollar";
import type { IterationPoint } from "@/lib/charts/types";
import { formatScore, formatUsd } from "@/components/loops/format";
import { AXIS, BEST, GRID } from "./chart-theme";
import { ChartFrame } from "./chart-frame";

export const ScoreSpendChart = memo(function ScoreSpendChart({ series }: { series: IterationPoint[] }) {
  const data = useMemo(() => scorePerDollar(series), [series]);
  const rows = useMemo(() => data.rows.filter((r) => r.best !== null), [data]);
  const summary = `${formatPerDollar(data.overall)} overall${
    data.recent !== null ? `, ${formatPerDollar(data.recent)} over the last ${data.window} iterations` : ""
  }`;
  return (
    <ChartFrame
      testId="score-spend-chart"
      title="Score gained per dollar"
      summary={summary}
      table={{
        columns: ["Iteration", "Spent", "Best so far"],
        rows: rows.map((r) => [r.iteration, formatUsd(r.spent), formatScore(r.best)]),
      }}
      points={rows.length}
      empty="Appears once an iteration has scored."
      legend={
        <span data-testid="score-per-dollar">
          {formatPerDollar(data.overall)}
          {data.recent !== null && (
            <span className="text-slate-500 dark:text-slate-400">
              {" "}
              · last {data.window}: {formatPerDollar(data.recent)}
            </span>
          )}
        </span>
      }
    >
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={rows} margin={{ top: 8, right: 12, bottom: 0, left: -12 }} accessibilityLayer={false}>
          <CartesianGrid stroke={GRID} strokeDasharray="3 3" />
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
          <Line
            type="stepAfter"
            dataKey="best"
            name="best so far"
            stroke={BEST}
            strokeWidth={2}
            dot={{ r: 2, fill: BEST }}
            isAnimationActive={false}
          />
        </LineChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
});

"use client";
// Score gained per dollar: the best score so far against cumulative spend.
// A curve that flattens while spend grows is a loop buying little; the rate
// overall and over the last few iterations says it in numbers.
import dynamic from "next/dynamic";
import { memo, useMemo } from "react";
import { formatPerDollar, scorePerDollar } from "@/lib/charts/score-per-dollar";
import type { IterationPoint } from "@/lib/charts/types";
import { formatScore, formatUsd } from "@/components/loops/format";
import { CHARTS, ChartFrame } from "./chart-frame";

// Recharts loads with the drawing, once the chart is drawn (see chart-frame.tsx).
const ScoreSpendChartDrawing = dynamic(() => import("./score-spend-chart-drawing"), { ssr: false });

export const ScoreSpendChart = memo(function ScoreSpendChart({ series }: { series: IterationPoint[] }) {
  const data = useMemo(() => scorePerDollar(series), [series]);
  const rows = useMemo(() => data.rows.filter((r) => r.best !== null), [data]);
  const summary = `${formatPerDollar(data.overall)} overall${
    data.recent !== null ? `, ${formatPerDollar(data.recent)} over the last ${data.window} iterations` : ""
  }`;
  const table = {
    columns: ["Iteration", "Spent", "Best so far"],
    rows: rows.map((r) => [r.iteration, formatUsd(r.spent), formatScore(r.best)]),
  };
  return (
    <ChartFrame
      about={CHARTS.scorePerDollar}
      facts={[summary, table, rows.map((r) => r.iteration)]}
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
      <ScoreSpendChartDrawing rows={rows} />
    </ChartFrame>
  );
});

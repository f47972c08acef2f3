"use client";
// Spend so far on a scale that fits it, the forecast drawn lightly into the
// headroom right of the last iteration (its end value said in words), and
// the budget as a line when it is near, or named at the top edge when it is
// far above ("budget $20 ↑ off scale"), so $0.10 of spend stays readable.
import dynamic from "next/dynamic";
import { memo, useMemo } from "react";
import { costScale } from "@/lib/charts/chart-window";
import { prepareCostChart, type CostForecastInput } from "@/lib/charts/cost-chart";
import { handoffIterations } from "@/lib/charts/score-chart";
import type { ChartInput } from "@/lib/charts/types";
import { formatUsd } from "@/components/loops/format";
import { costFacts } from "./chart-summaries";
import { BUDGET, FORECAST } from "./chart-theme";
import { CHARTS, ChartFrame } from "./chart-frame";

// Recharts loads with the drawing, once the chart is drawn (see chart-frame.tsx).
const CostChartDrawing = dynamic(() => import("./cost-chart-drawing"), { ssr: false });

export const CostChart = memo(function CostChart({
  series,
  budget,
  forecast,
  events,
  xRange,
}: ChartInput & {
  budget: number | null;
  forecast: CostForecastInput | null;
}) {
  const chart = useMemo(
    () => prepareCostChart(series, { budget, forecast, until: xRange.edge }),
    [series, budget, forecast, xRange.edge],
  );
  const handoffs = useMemo(() => handoffIterations(series, events), [series, events]);
  const drawnMax = chart.rows.reduce((m, r) => Math.max(m, r.cost ?? 0, r.forecast ?? 0), 0);
  const scale = costScale(drawnMax, chart.budget, formatUsd);
  const exhaustedOnChart = chart.exhaustedAt !== null && chart.exhaustedAt <= xRange.edge ? chart.exhaustedAt : null;
  return (
    <ChartFrame
      about={CHARTS.cost}
      facts={costFacts(chart, forecast)}
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
      <CostChartDrawing
        rows={chart.rows}
        xRange={xRange}
        scale={scale}
        exhaustedOnChart={exhaustedOnChart}
        handoffs={handoffs}
      />
    </ChartFrame>
  );
});

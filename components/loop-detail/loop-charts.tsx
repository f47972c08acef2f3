"use client";
// The four charts of a loop, fed by the pure prep functions in lib/charts.
import type { LoopDetail } from "@/components/shared/api-types";
import { CostChart } from "./charts/cost-chart";
import { HealthTimeline } from "./charts/health-timeline";
import { ScoreChart } from "./charts/score-chart";
import { TokenChart } from "./charts/token-chart";
import { TERMINAL } from "./control-rules";

export function LoopCharts({ detail }: { detail: LoopDetail }) {
  const series = detail.series;
  // A loop that has ended has nothing left to forecast.
  const forecast = detail.forecast && !TERMINAL.includes(detail.loop.status) ? detail.forecast : null;
  return (
    <section aria-label="Charts" className="grid grid-cols-1 items-start gap-4 lg:grid-cols-2">
      <ScoreChart series={series} threshold={detail.config?.stop.scoreThreshold ?? null} events={detail.markers} />
      <CostChart series={series} budget={detail.loop.budgetUsd} forecast={forecast} events={detail.markers} />
      <TokenChart series={series} events={detail.markers} />
      <HealthTimeline series={series} events={detail.markers} />
    </section>
  );
}

"use client";
// The charts of a loop, fed by the pure prep functions in lib/charts.
// Memoised on the series and events themselves (kept identical across
// refetches by shareEqual), so a tick or an unrelated event draws nothing.
// They draw the page's one store of the loop (`loops.byId`, moved forward by
// each iteration's event), on the page's beat (pulse.ts): at most two redraws
// a second, in the frame the header and the list move in, so no chart ever
// says a different iteration or spend than the header beside it (they used
// to redraw every 10 s and fell tens of iterations behind).
import { memo, useMemo } from "react";
import type { CostForecastInput } from "@/lib/charts/cost-chart";
import type { ChartEvent, IterationPoint } from "@/lib/charts/types";
import { CostChart } from "./charts/cost-chart";
import { HealthTimeline } from "./charts/health-timeline";
import { ZoomableScoreChart } from "./charts/score-zoom";
import { TokenChart } from "./charts/token-chart";
import { ScoreSpendChart } from "./charts/score-spend-chart";
import { iterationWindow } from "@/lib/charts/chart-window";
import { useBeatValue } from "@/components/live/use-beat-value";

export const LoopCharts = memo(function LoopCharts({
  loopId,
  series: liveSeries,
  markers: liveMarkers,
  threshold,
  budget,
  forecast: liveForecast,
  bucketSize,
  iterations,
  plateauAfter,
}: {
  /** For the score chart's zoom, which reads a window of iterations from the server. */
  loopId: string;
  series: IterationPoint[];
  /** Iterations per point: above 1 for a long loop the server charts a bucket at a time. */
  bucketSize: number;
  iterations: number;
  markers: ChartEvent[];
  threshold: number | null;
  budget: number | null;
  /** Null once the loop has ended: there is nothing left to forecast. */
  forecast: CostForecastInput | null;
  /** The loop's "no progress" stop limit: plateaus are marked at that run length. */
  plateauAfter?: number;
}) {
  // Together, so markers never run ahead of the points they mark; the forecast too, as it
  // changes with every iteration's spend and would otherwise redraw the cost chart each time.
  const live = useMemo(
    () => ({ series: liveSeries, markers: liveMarkers, forecast: liveForecast }),
    [liveSeries, liveMarkers, liveForecast],
  );
  const { series, markers, forecast } = useBeatValue(live, true);
  // One x range for every iteration chart: to the last iteration plus a little headroom.
  const xRange = useMemo(() => iterationWindow(series.map((p) => p.number)), [series]);
  return (
    <section aria-label="Charts" className="grid grid-cols-1 items-stretch gap-4 lg:grid-cols-2">
      {bucketSize > 1 && (
        <p className="text-xs text-slate-600 lg:col-span-2 dark:text-slate-400">
          {iterations.toLocaleString("en-US")} iterations, downsampled: in every {bucketSize} iterations the lowest and
          highest score and the first handoff are kept as points; each point&apos;s spend and tokens count every
          iteration since the one before. Zoom into the score chart for every iteration.
        </p>
      )}
      <ZoomableScoreChart
        loopId={loopId}
        series={series}
        threshold={threshold}
        events={markers}
        xRange={xRange}
        plateauAfter={plateauAfter && plateauAfter > 0 ? plateauAfter : undefined}
      />
      <CostChart series={series} budget={budget} forecast={forecast} events={markers} xRange={xRange} />
      <TokenChart series={series} events={markers} />
      <ScoreSpendChart series={series} />
      <div className="min-w-0 lg:col-span-2">
        <HealthTimeline series={series} events={markers} xRange={xRange} />
      </div>
    </section>
  );
});

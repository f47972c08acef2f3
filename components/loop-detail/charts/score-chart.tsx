"use client";
// Scores are discrete per iteration: each scorer is drawn as points joined
// by steps (never a smoothed curve), the mean as points on straight
// segments, the best so far as a light stepped envelope. Plateaus are shaded
// spans, regressions red dots; both are listed under the chart.
import dynamic from "next/dynamic";
import { memo, useMemo } from "react";

import { prepareScoreChart, summarizeHandoffs } from "@/lib/charts/score-chart";
import type { ChartInput } from "@/lib/charts/types";
import { formatScore } from "@/components/loops/format";
import { HANDOFF, PLATEAU, REGRESSION } from "./chart-theme";
import { CHARTS, ChartFrame } from "./chart-frame";
import { scoreFacts } from "./chart-summaries";
import { MarkerList } from "./marker-list";

// Recharts loads with the drawing, once the chart is drawn (see chart-frame.tsx).
const ScoreChartDrawing = dynamic(() => import("./score-chart-drawing"), { ssr: false });

export const ScoreChart = memo(function ScoreChart({
  series,
  threshold,
  events,
  xRange,
  plateauAfter,
  selection,
}: ChartInput & {
  threshold: number | null;
  /** The loop's own "no progress" limit, so a plateau is marked before the loop stops on it. */
  plateauAfter?: number;
  /** Iterations being selected by a drag across the chart (zooming in), shaded. */
  selection?: { from: number; to: number } | null;
}) {
  const chart = useMemo(
    () => prepareScoreChart(series, { threshold, events, plateauAfter }),
    [series, threshold, events, plateauAfter],
  );
  const handoffs = useMemo(() => summarizeHandoffs(series, events), [series, events]);
  return (
    <ChartFrame
      about={CHARTS.score}
      facts={scoreFacts(chart)}
      footer={
        (chart.markers.length > 0 || handoffs.length > 0) && (
          <MarkerList label="Score notes">
            {chart.markers.map((m) => (
              <li key={`${m.kind}${m.iteration}`} data-testid={`${m.kind}-marker`}>
                <span style={{ color: m.kind === "plateau" ? PLATEAU : REGRESSION }}>
                  {m.kind === "plateau" ? "▬" : "▼"}
                </span>{" "}
                {m.kind} {m.kind === "plateau" && m.from !== undefined ? `#${m.from}–#${m.to}` : `at #${m.iteration}`}:{" "}
                {m.label}
              </li>
            ))}
            {handoffs.map((h) => (
              <li key={`h${h.afterIteration}`} data-testid="handoff-marker">
                <span style={{ color: HANDOFF }}>⇄</span> fresh context after #{h.afterIteration} (
                {h.trigger.replace(/_/g, " ")}): {formatScore(h.before)} → {formatScore(h.after)}
              </li>
            ))}
          </MarkerList>
        )
      }
    >
      <ScoreChartDrawing chart={chart} xRange={xRange} selection={selection} />
    </ChartFrame>
  );
});

"use client";
import dynamic from "next/dynamic";
import { memo, useMemo } from "react";
import { prepareTokenChart } from "@/lib/charts/cost-chart";
import { handoffIterations } from "@/lib/charts/score-chart";
import type { ChartInput } from "@/lib/charts/types";
import { tokenSummary, tokenTable } from "./chart-summaries";
import { ChartFrame } from "./chart-frame";

// Recharts loads with the drawing, once the chart is drawn (see chart-frame.tsx).
const TokenChartDrawing = dynamic(() => import("./token-chart-drawing"), { ssr: false });

export const TokenChart = memo(function TokenChart({ series, events }: Omit<ChartInput, "xRange">) {
  const rows = useMemo(() => prepareTokenChart(series), [series]);
  const handoffs = useMemo(() => handoffIterations(series, events), [series, events]);
  return (
    <ChartFrame
      testId="token-chart"
      title="Tokens per iteration"
      summary={tokenSummary(rows)}
      table={tokenTable(rows)}
      points={rows.length}
      lastX={rows.at(-1)?.iteration ?? null}
      empty="Token use appears here after the first iteration."
    >
      <TokenChartDrawing rows={rows} handoffs={handoffs} />
    </ChartFrame>
  );
});

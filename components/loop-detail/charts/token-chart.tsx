"use client";
import dynamic from "next/dynamic";
import { memo, useMemo } from "react";
import { prepareTokenChart } from "@/lib/charts/cost-chart";
import { handoffIterations } from "@/lib/charts/score-chart";
import type { ChartInput } from "@/lib/charts/types";
import { tokenFacts } from "./chart-summaries";
import { CHARTS, ChartFrame } from "./chart-frame";

// Recharts loads with the drawing, once the chart is drawn (see chart-frame.tsx).
const TokenChartDrawing = dynamic(() => import("./token-chart-drawing"), { ssr: false });

export const TokenChart = memo(function TokenChart({ series, events }: Omit<ChartInput, "xRange">) {
  const rows = useMemo(() => prepareTokenChart(series), [series]);
  const handoffs = useMemo(() => handoffIterations(series, events), [series, events]);
  return (
    <ChartFrame about={CHARTS.tokens} facts={tokenFacts(rows)}>
      <TokenChartDrawing rows={rows} handoffs={handoffs} />
    </ChartFrame>
  );
});

"use client";
// Score over iterations, every contender on one chart: who got to the target first, and how.
import dynamic from "next/dynamic";
import { useMemo } from "react";
import { contenderKey, prepareRaceChart, type RacePoint } from "@/lib/charts/race-chart";
import { formatScore } from "@/components/loops/format";
import { CHARTS, ChartFrame } from "@/components/loop-detail/charts/chart-frame";

const RaceScoreDrawing = dynamic(() => import("./race-score-drawing"), { ssr: false });

export function RaceScoreChart({ contenders }: { contenders: { id: string; name: string; points: RacePoint[] }[] }) {
  const rows = useMemo(() => prepareRaceChart(contenders), [contenders]);
  const table = {
    columns: ["Iteration", ...contenders.map((c) => c.name)],
    rows: rows.map((r) => [r.iteration, ...contenders.map((c) => formatScore(r[contenderKey(c.id)]))]),
  };
  const summary = contenders
    .map(
      (c) =>
        `${c.name}: last ${formatScore(rows.findLast((r) => r[contenderKey(c.id)] != null)?.[contenderKey(c.id)])}`,
    )
    .join("; ");
  return (
    <ChartFrame
      about={CHARTS.race}
      facts={[rows.length ? summary : "no iterations yet", table, rows.map((r) => r.iteration)]}
    >
      <RaceScoreDrawing rows={rows} contenders={contenders} />
    </ChartFrame>
  );
}

"use client";
// The health lane: the health state over iterations as coloured bands on the
// top row, and a row for each kind of health event (nudge, escalation,
// watchdog terminate, breaker trip, handoff) with a glyph at its iteration,
// on the same x range as the other charts. The events are listed under it.
import dynamic from "next/dynamic";
import { memo, useMemo } from "react";

import { healthLanes } from "@/lib/charts/health-lanes";
import { healthBands, healthMarkers, HEALTH_ORDER } from "@/lib/charts/health-timeline";
import type { ChartInput } from "@/lib/charts/types";
import { HEALTH_COLORS } from "./chart-theme";
import { HEALTH_GLYPHS as GLYPH } from "./health-glyphs";
import { CHARTS, ChartFrame } from "./chart-frame";
import { healthFacts } from "./chart-summaries";
import { MarkerList } from "./marker-list";

// Recharts loads with the drawing, once the chart is drawn (see chart-frame.tsx).
const HealthTimelineDrawing = dynamic(() => import("./health-timeline-drawing"), { ssr: false });

export const HealthTimeline = memo(function HealthTimeline({ series, events, xRange }: ChartInput) {
  const bands = useMemo(() => healthBands(series), [series]);
  const markers = useMemo(() => healthMarkers(events), [events]);
  const lanes = useMemo(() => healthLanes(bands, markers), [bands, markers]);
  const states = HEALTH_ORDER.filter((s) => bands.some((b) => b.state === s));
  const n = lanes.lanes.length;
  return (
    <ChartFrame
      about={CHARTS.health}
      facts={healthFacts(bands)}
      drawable={bands.length > 0 || markers.length > 0}
      height={n <= 2 ? "h-24" : n <= 4 ? "h-32" : "h-40"}
      legend={states.map((s) => (
        <span key={s} className="inline-flex items-center gap-1">
          <span aria-hidden className="h-2.5 w-2.5 rounded-sm" style={{ background: HEALTH_COLORS[s] }} />
          {s}
        </span>
      ))}
      footer={
        markers.length > 0 && (
          <MarkerList label="Health events">
            {markers.map((m) => (
              <li key={m.eventId} data-testid={`health-marker-${m.kind}`}>
                <span style={{ color: GLYPH[m.kind].color }}>{GLYPH[m.kind].glyph}</span> #{m.iteration} {m.label}
              </li>
            ))}
          </MarkerList>
        )
      }
    >
      <HealthTimelineDrawing bands={bands} lanes={lanes} xRange={xRange} />
    </ChartFrame>
  );
});

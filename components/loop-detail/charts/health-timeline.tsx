"use client";
// Health over iterations as coloured bands, with markers for nudges,
// escalations, breaker trips and fresh-context handoffs from the audit events.
import { memo, useMemo } from "react";
import { ComposedChart, Line, ReferenceArea, ReferenceLine, ResponsiveContainer, XAxis, YAxis } from "recharts";
import { healthBands, healthMarkers, HEALTH_ORDER, type HealthMarkerKind } from "@/lib/charts/health-timeline";
import type { ChartEvent, IterationPoint } from "@/lib/charts/types";
import { AXIS, HANDOFF, HEALTH_COLORS, iterationDomain, iterationTicks } from "./chart-theme";
import { ChartFrame } from "./chart-frame";
import { healthSummary, healthTable } from "./chart-summaries";

const GLYPH: Record<HealthMarkerKind, { glyph: string; color: string; name: string }> = {
  nudge: { glyph: "✎", color: "#0ea5e9", name: "nudge" },
  escalation: { glyph: "▲", color: "#f97316", name: "escalation" },
  terminate: { glyph: "■", color: "#7f1d1d", name: "watchdog terminate" },
  breaker: { glyph: "⚡", color: "#e11d48", name: "breaker trip" },
  handoff: { glyph: "⇄", color: HANDOFF, name: "handoff" },
};

export const HealthTimeline = memo(function HealthTimeline({
  series,
  events,
}: {
  series: IterationPoint[];
  events: ChartEvent[];
}) {
  const bands = useMemo(() => healthBands(series), [series]);
  const markers = useMemo(() => healthMarkers(events), [events]);
  const iterations = [...bands.flatMap((b) => [b.from, b.to]), ...markers.map((m) => m.iteration)];
  const rows = [...new Set(iterations)].sort((a, b) => a - b).map((iteration) => ({ iteration, y: 0.5 }));
  const states = HEALTH_ORDER.filter((s) => bands.some((b) => b.state === s));
  return (
    <ChartFrame
      testId="health-timeline"
      title="Health timeline"
      summary={healthSummary(bands)}
      table={healthTable(bands)}
      points={bands.length}
      drawable={rows.length > 0}
      height="h-20"
      empty="Health appears here after the first iteration."
      legend={states.map((s) => (
        <span key={s} className="inline-flex items-center gap-1">
          <span aria-hidden className="h-2.5 w-2.5 rounded-sm" style={{ background: HEALTH_COLORS[s] }} />
          {s}
        </span>
      ))}
      footer={
        markers.length > 0 && (
          <ul
            aria-label="Health events"
            tabIndex={0}
            className="mt-2 max-h-24 space-y-0.5 overflow-y-auto text-xs text-slate-600 dark:text-slate-400"
          >
            {markers.map((m) => (
              <li key={m.eventId} data-testid={`health-marker-${m.kind}`}>
                <span style={{ color: GLYPH[m.kind].color }}>{GLYPH[m.kind].glyph}</span> #{m.iteration} {m.label}
              </li>
            ))}
          </ul>
        )
      }
    >
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={rows} margin={{ top: 14, right: 12, bottom: 0, left: 12 }} accessibilityLayer={false}>
          <XAxis
            dataKey="iteration"
            type="number"
            domain={iterationDomain(rows.map((r) => r.iteration))}
            allowDecimals={false}
            ticks={iterationTicks(rows.map((r) => r.iteration))}
            tick={AXIS}
          />
          <YAxis domain={[0, 1]} hide />
          {bands.map((b) => (
            <ReferenceArea
              key={b.from}
              x1={b.from - 0.5}
              x2={b.to + 0.5}
              y1={0}
              y2={1}
              fill={HEALTH_COLORS[b.state] ?? HEALTH_COLORS.unknown}
              fillOpacity={0.55}
              strokeOpacity={0}
            />
          ))}
          {markers.map((m) => (
            <ReferenceLine
              key={m.eventId}
              x={m.kind === "handoff" ? m.iteration + 0.5 : m.iteration}
              stroke={GLYPH[m.kind].color}
              label={{ value: GLYPH[m.kind].glyph, position: "top", fill: GLYPH[m.kind].color, fontSize: 12 }}
            />
          ))}
          <Line dataKey="y" stroke="none" dot={false} isAnimationActive={false} />
        </ComposedChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
});

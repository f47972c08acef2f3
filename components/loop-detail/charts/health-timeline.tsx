"use client";
// The health lane: the health state over iterations as coloured bands on the
// top row, and a row for each kind of health event (nudge, escalation,
// watchdog terminate, breaker trip, handoff) with a glyph at its iteration,
// on the same x range as the other charts. The events are listed under it.
import { memo, useMemo } from "react";
import {
  CartesianGrid,
  ComposedChart,
  Line,
  ReferenceArea,
  ResponsiveContainer,
  Scatter,
  XAxis,
  YAxis,
} from "recharts";
import type { IterationWindow } from "@/lib/charts/chart-window";
import { healthLanes } from "@/lib/charts/health-lanes";
import { healthBands, healthMarkers, HEALTH_ORDER, type HealthMarkerKind } from "@/lib/charts/health-timeline";
import type { ChartEvent, IterationPoint } from "@/lib/charts/types";
import { AXIS, GRID, HANDOFF, HEALTH_COLORS } from "./chart-theme";
import { ChartFrame } from "./chart-frame";
import { healthSummary, healthTable } from "./chart-summaries";
import { MarkerList } from "./marker-list";

const GLYPH: Record<HealthMarkerKind, { glyph: string; color: string; name: string }> = {
  nudge: { glyph: "✎", color: "#0284c7", name: "nudges" },
  escalation: { glyph: "▲", color: "#ea580c", name: "escalations" },
  terminate: { glyph: "■", color: "#b91c1c", name: "terminated" },
  breaker: { glyph: "⚡", color: "#e11d48", name: "breaker" },
  handoff: { glyph: "⇄", color: HANDOFF, name: "handoffs" },
};

const glyphShape = (kind: HealthMarkerKind) =>
  function Glyph(props: unknown) {
    const { cx, cy } = props as { cx?: number; cy?: number };
    if (cx === undefined || cy === undefined) return <g />;
    return (
      <text x={cx} y={cy} dy={4} textAnchor="middle" fontSize={12} fill={GLYPH[kind].color}>
        {GLYPH[kind].glyph}
      </text>
    );
  };

export const HealthTimeline = memo(function HealthTimeline({
  series,
  events,
  xRange,
}: {
  series: IterationPoint[];
  events: ChartEvent[];
  xRange: IterationWindow;
}) {
  const bands = useMemo(() => healthBands(series), [series]);
  const markers = useMemo(() => healthMarkers(events), [events]);
  const lanes = useMemo(() => healthLanes(bands, markers), [bands, markers]);
  const states = HEALTH_ORDER.filter((s) => bands.some((b) => b.state === s));
  const kinds = lanes.lanes.slice(1) as HealthMarkerKind[];
  const n = lanes.lanes.length;
  const laneName = (y: number) => {
    const lane = lanes.lanes[n - 1 - Math.floor(y)];
    return lane === "health" ? "health" : lane ? GLYPH[lane as HealthMarkerKind].name : "";
  };
  return (
    <ChartFrame
      testId="health-timeline"
      title="Health lane"
      summary={healthSummary(bands)}
      table={healthTable(bands)}
      points={bands.length}
      drawable={bands.length > 0 || markers.length > 0}
      height={n <= 2 ? "h-24" : n <= 4 ? "h-32" : "h-40"}
      empty="Health appears here after the first iteration."
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
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart
          data={bands.map((b) => ({ iteration: b.to, y: n - 0.5 }))}
          margin={{ top: 4, right: 12, bottom: 0, left: 0 }}
          accessibilityLayer={false}
        >
          <CartesianGrid stroke={GRID} strokeDasharray="3 3" horizontal={false} />
          <XAxis
            dataKey="iteration"
            type="number"
            domain={xRange.domain}
            allowDataOverflow
            allowDecimals={false}
            ticks={xRange.ticks}
            tick={AXIS}
          />
          <YAxis
            dataKey="y"
            type="number"
            domain={[0, n]}
            ticks={lanes.lanes.map((_, i) => n - i - 0.5)}
            tickFormatter={laneName}
            tick={AXIS}
            width={78}
            interval={0}
          />
          {bands.map((b) => (
            <ReferenceArea
              key={b.from}
              x1={b.from - 0.5}
              x2={b.to + 0.5}
              y1={n - 0.85}
              y2={n - 0.15}
              fill={HEALTH_COLORS[b.state] ?? HEALTH_COLORS.unknown}
              fillOpacity={0.6}
              strokeOpacity={0}
            />
          ))}
          {/* An invisible series: the chart draws its axes and areas only when some series has data. */}
          <Line dataKey="y" stroke="none" dot={false} isAnimationActive={false} legendType="none" />
          {kinds.map((kind) => (
            <Scatter
              key={kind}
              name={GLYPH[kind].name}
              data={lanes.points.filter((p) => p.kind === kind)}
              dataKey="y"
              shape={glyphShape(kind)}
              isAnimationActive={false}
            />
          ))}
        </ComposedChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
});

"use client";
// The health lane's drawing, in a chunk of its own with Recharts: the page
// shows the lane's frame, legend and events first and loads this when it is drawn.
import { ComposedChart, Line, ReferenceArea, ResponsiveContainer, Scatter, YAxis } from "recharts";
import type { IterationWindow } from "@/lib/charts/chart-window";
import type { HealthLanes } from "@/lib/charts/health-lanes";
import type { HealthBand, HealthMarkerKind } from "@/lib/charts/health-timeline";
import { AXIS, HEALTH_COLORS } from "./chart-theme";
import { chartGrid, iterationAxis } from "./chart-parts";
import { HEALTH_GLYPHS as GLYPH } from "./health-glyphs";

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

export default function HealthTimelineDrawing({
  bands,
  lanes,
  xRange,
}: {
  bands: HealthBand[];
  lanes: HealthLanes;
  xRange: IterationWindow;
}) {
  const kinds = lanes.lanes.slice(1) as HealthMarkerKind[];
  const n = lanes.lanes.length;
  const laneName = (y: number) => {
    const lane = lanes.lanes[n - 1 - Math.floor(y)];
    return lane === "health" ? "health" : lane ? GLYPH[lane as HealthMarkerKind].name : "";
  };
  return (
    <ResponsiveContainer width="100%" height="100%">
      <ComposedChart
        data={bands.map((b) => ({ iteration: b.to, y: n - 0.5 }))}
        margin={{ top: 4, right: 12, bottom: 0, left: 0 }}
        accessibilityLayer={false}
      >
        {chartGrid({ horizontal: false })}
        {iterationAxis(xRange)}
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
  );
}

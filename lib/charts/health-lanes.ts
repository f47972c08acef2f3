// The health lane: one row of health bands, and under it one row per kind
// of health event the loop has had (nudges, escalations, watchdog
// terminations, breaker trips, handoffs), each event a point at its
// iteration. Pure; the chart draws what this returns.
import type { HealthBand, HealthMarker, HealthMarkerKind } from "./health-timeline";

export const LANE_ORDER: HealthMarkerKind[] = ["nudge", "escalation", "terminate", "breaker", "handoff"];

export interface HealthLanes {
  /** Top to bottom: "health", then the event kinds present. */
  lanes: string[];
  /** y of each lane's centre (lane i of n sits at n - i - 0.5, so the first is on top). */
  center: Record<string, number>;
  points: { kind: HealthMarkerKind; iteration: number; y: number; label: string; eventId: number }[];
  bands: HealthBand[];
}

export function healthLanes(bands: readonly HealthBand[], markers: readonly HealthMarker[]): HealthLanes {
  const kinds = LANE_ORDER.filter((k) => markers.some((m) => m.kind === k));
  const lanes = ["health", ...kinds];
  const center = Object.fromEntries(lanes.map((lane, i) => [lane, lanes.length - i - 0.5]));
  const points = markers.map((m) => ({
    kind: m.kind,
    // A handoff happens between two iterations.
    iteration: m.kind === "handoff" ? m.iteration + 0.5 : m.iteration,
    y: center[m.kind]!,
    label: m.label,
    eventId: m.eventId,
  }));
  return { lanes, center, points, bands: [...bands] };
}

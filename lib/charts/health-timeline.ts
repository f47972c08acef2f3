// The health timeline: bands of consecutive iterations in one health state,
// and markers for nudges, escalations, breaker trips and handoffs taken from
// the audit events.
import { eventIteration, lastAttempts, type ChartEvent, type IterationPoint } from "./types";

export interface HealthBand {
  from: number;
  to: number;
  state: string;
}

export type HealthMarkerKind = "nudge" | "escalation" | "terminate" | "breaker" | "handoff";

export interface HealthMarker {
  eventId: number;
  iteration: number;
  kind: HealthMarkerKind;
  label: string;
  actor: string;
}

export function healthBands(points: readonly IterationPoint[]): HealthBand[] {
  const bands: HealthBand[] = [];
  for (const p of lastAttempts(points)) {
    const state = p.health ?? "unknown";
    const last = bands.at(-1);
    if (last && last.state === state) last.to = p.number;
    else bands.push({ from: p.number, to: p.number, state });
  }
  return bands;
}

function markerFor(event: ChartEvent): { kind: HealthMarkerKind; label: string } | null {
  const p = (event.payload ?? {}) as Record<string, unknown>;
  switch (event.type) {
    case "intervention": {
      const level = String(p.level ?? "");
      if (level === "nudge")
        return { kind: "nudge", label: `watchdog nudge: ${String(p.message ?? event.reason ?? "")}` };
      if (level === "escalate")
        return { kind: "escalation", label: `escalated: ${String(p.message ?? event.reason ?? "")}` };
      if (level === "terminate") return { kind: "terminate", label: `watchdog terminate: ${event.reason ?? ""}` };
      return null;
    }
    case "breaker_changed":
      return p.to === "open" ? { kind: "breaker", label: `circuit breaker opened: ${event.reason ?? ""}` } : null;
    case "handoff":
      return { kind: "handoff", label: `fresh context (${String(p.trigger ?? "handoff")})` };
    case "control_applied":
      // An operator's nudge, applied at a safe point; the request event carries the message.
      return p.command === "nudge" ? { kind: "nudge", label: `operator nudge by ${event.actor}` } : null;
    default:
      return null;
  }
}

/** Events become markers at their iteration (events before the first iteration sit at 0). */
export function healthMarkers(events: readonly ChartEvent[]): HealthMarker[] {
  return events
    .flatMap((event) => {
      const marker = markerFor(event);
      if (!marker) return [];
      return [{ eventId: event.id, iteration: eventIteration(event) ?? 0, actor: event.actor, ...marker }];
    })
    .sort((a, b) => a.iteration - b.iteration || a.eventId - b.eventId);
}

/** The health states in the order the legend shows them, worst last. */
export const HEALTH_ORDER = ["healthy", "degraded", "stuck", "failing", "terminated", "unknown"] as const;

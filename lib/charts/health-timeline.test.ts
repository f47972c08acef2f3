import { describe, expect, it } from "vitest";
import { point } from "../../test/chart-fixtures";
import { healthBands, healthMarkers } from "./health-timeline";
import type { ChartEvent } from "./types";

const event = (id: number, type: string, payload: Record<string, unknown>, actor = "engine"): ChartEvent => ({
  id,
  type,
  payload,
  reason: "why",
  actor,
  createdAt: new Date(0),
});

describe("healthBands", () => {
  it("joins consecutive iterations in the same state", () => {
    const bands = healthBands([
      point(1),
      point(2),
      point(3, { health: "degraded" }),
      point(4, { health: "stuck" }),
      point(5, { health: "stuck" }),
    ]);
    expect(bands).toEqual([
      { from: 1, to: 2, state: "healthy" },
      { from: 3, to: 3, state: "degraded" },
      { from: 4, to: 5, state: "stuck" },
    ]);
  });
  it("shows a missing state as unknown", () => {
    expect(healthBands([point(1, { health: null })])).toEqual([{ from: 1, to: 1, state: "unknown" }]);
  });
});

describe("healthMarkers", () => {
  it("turns nudges, escalations, breaker trips and handoffs into markers at their iteration", () => {
    const markers = healthMarkers([
      event(5, "handoff", { iteration: 3, trigger: "explicit_request" }),
      event(1, "intervention", { iteration: 2, level: "nudge", message: "still there?" }),
      event(2, "intervention", { iteration: 2, level: "escalate", message: "stuck" }),
      event(3, "breaker_changed", { iteration: 4, from: "closed", to: "open" }),
      event(4, "breaker_changed", { iteration: 5, from: "open", to: "half_open" }),
      event(6, "control_applied", { iteration: 6, command: "nudge" }, "ops@example.com"),
      event(7, "scored", { iteration: 6 }),
    ]);
    expect(markers.map((m) => [m.iteration, m.kind])).toEqual([
      [2, "nudge"],
      [2, "escalation"],
      [3, "handoff"],
      [4, "breaker"],
      [6, "nudge"],
    ]);
    expect(markers[0]!.label).toBe("watchdog nudge: still there?");
    expect(markers[4]!.label).toBe("operator nudge by ops@example.com");
  });
});

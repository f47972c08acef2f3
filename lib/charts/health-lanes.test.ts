import { describe, expect, it } from "vitest";
import { healthLanes } from "./health-lanes";
import type { HealthMarker } from "./health-timeline";

const marker = (eventId: number, iteration: number, kind: HealthMarker["kind"]): HealthMarker => ({
  eventId,
  iteration,
  kind,
  label: kind,
  actor: "engine",
});

describe("healthLanes", () => {
  it.each<[string, HealthMarker[], string[]]>([
    ["only the health row without events", [], ["health"]],
    [
      "one row per kind present, in a fixed order",
      [marker(1, 3, "handoff"), marker(2, 2, "nudge")],
      ["health", "nudge", "handoff"],
    ],
    [
      "kinds seen twice get one row",
      [marker(1, 2, "breaker"), marker(2, 4, "breaker"), marker(3, 4, "escalation")],
      ["health", "escalation", "breaker"],
    ],
  ])("%s", (_name, markers, lanes) => {
    expect(healthLanes([], markers).lanes).toEqual(lanes);
  });

  it("puts the health row on top and each event on its row, handoffs between iterations", () => {
    const lanes = healthLanes([{ from: 1, to: 4, state: "healthy" }], [marker(1, 2, "nudge"), marker(2, 3, "handoff")]);
    expect(lanes.center).toEqual({ health: 2.5, nudge: 1.5, handoff: 0.5 });
    expect(lanes.points.map((p) => [p.kind, p.iteration, p.y])).toEqual([
      ["nudge", 2, 1.5],
      ["handoff", 3.5, 0.5],
    ]);
  });
});

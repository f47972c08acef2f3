import { describe, expect, it } from "vitest";
import { describeEvent } from "./audit-log";
import { actorLabel, eventLabel, human } from "./audit-labels";

describe("audit log wording", () => {
  it("says which control was applied, and when", () => {
    expect(describeEvent({ type: "control_applied", payload: { command: "nudge", iteration: 24 } })).toBe(
      "nudge (after iteration 24)",
    );
    expect(describeEvent({ type: "control_rejected", payload: { command: "request_changes", iteration: 3 } })).toBe(
      "request changes (after iteration 3)",
    );
    expect(
      describeEvent({
        type: "limits_updated",
        payload: { patch: { stop: { maxIterations: 9 }, budget: { maxCostUsd: 2 } } },
      }),
    ).toBe("max iterations, max cost usd");
  });

  it("has words for every enum an event carries", () => {
    expect(describeEvent({ type: "handoff", payload: { trigger: "context_threshold" } })).toBe(
      "fresh context: context window nearly full",
    );
    expect(describeEvent({ type: "breaker_changed", payload: { from: "closed", to: "half_open" } })).toBe(
      "closed → half open",
    );
    expect(describeEvent({ type: "halted", payload: { stopType: "max_iterations", status: "stopped" } })).not.toMatch(
      /_/,
    );
    expect(
      describeEvent({ type: "status_changed", payload: { from: "awaiting_approval", to: "needs_attention" } }),
    ).not.toMatch(/_/);
    expect(human("some_new_value")).toBe("some new value");
    expect(eventLabel("limit_wait_started")).toBe("Waiting for a usage limit");
  });

  it("names people, and calls an agent's id an agent", () => {
    expect(actorLabel({ actor: "0190f1d2-7a3b-7c4d-8e5f-0123456789ab" })).toBe("agent");
    expect(actorLabel({ actor: "ops@example.com", actorName: "Ops Person" })).toBe("Ops Person");
    expect(actorLabel({ actor: "engine" })).toBe("engine");
  });
});

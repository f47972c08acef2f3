import { describe, expect, it } from "vitest";
import {
  assertNever,
  isFailure,
  isStopType,
  isSuccess,
  isTerminalStatus,
  normalizeStopType,
  statusForStop,
  stopOutcome,
  stopTypeAliases,
  stopTypes,
  type StopType,
} from "./stop-types";

describe("stop types", () => {
  const table: [StopType, boolean, boolean, string][] = [
    ["none", false, false, "stopped"],
    ["completion", true, false, "completed"],
    ["score_threshold", true, false, "completed"],
    ["max_iterations", false, false, "stopped"],
    ["timeout", false, false, "stopped"],
    ["max_cost", false, false, "stopped"],
    ["budget_exhausted", false, false, "stopped"],
    ["max_consecutive_failures", false, true, "failed"],
    ["no_progress", false, false, "stopped"],
    ["usage_limit", false, false, "stopped"],
    ["health_failure", false, true, "failed"],
    ["circuit_breaker_open", false, true, "failed"],
    ["explicit_stop", false, false, "stopped"],
    ["user_interrupted", false, false, "stopped"],
    ["system_error", false, true, "failed"],
    ["cancelled", false, false, "cancelled"],
    ["race_lost", false, false, "stopped"],
  ];

  it("the table covers the whole union", () => {
    expect(table.map(([t]) => t).sort()).toEqual([...stopTypes].sort());
  });

  it.each(table)("%s: success=%s failure=%s status=%s", (type, success, failure, status) => {
    expect(isSuccess(type)).toBe(success);
    expect(isFailure(type)).toBe(failure);
    expect(statusForStop(type)).toBe(status);
  });

  it("maps CD's names onto the canonical values", () => {
    expect(stopTypeAliases).toEqual({
      goal_achieved: "completion",
      max_duration: "timeout",
      consecutive_errors: "max_consecutive_failures",
    });
    expect(normalizeStopType("goal_achieved")).toBe("completion");
    expect(normalizeStopType("budget_exhausted")).toBe("budget_exhausted");
    expect(() => normalizeStopType("nope")).toThrow("Unknown stop type: nope");
    expect(isStopType("max_cost")).toBe(true);
  });

  it("is exhaustive at runtime too", () => {
    expect(() => stopOutcome("bogus" as StopType)).toThrow("Unexpected value: bogus");
    expect(() => assertNever("x" as never)).toThrow();
    expect(isTerminalStatus("running")).toBe(false);
    expect(isTerminalStatus("cancelled")).toBe(true);
  });
});

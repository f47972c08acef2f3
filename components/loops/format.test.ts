import { describe, expect, it } from "vitest";
import {
  budgetShare,
  formatDuration,
  formatRelative,
  formatTokens,
  formatUsd,
  statusDisplay,
  stopTypeLabel,
  isLoopStatus,
} from "./format";

describe("format", () => {
  it("says how long ago", () => {
    const now = new Date(100_000_000);
    expect(formatRelative(new Date(now.getTime() - 12_000), now)).toBe("12 s ago");
    expect(formatRelative(new Date(now.getTime() - 3 * 60_000), now)).toBe("3 min ago");
    expect(formatRelative(new Date(now.getTime() + 5000), now)).toBe("0 s ago");
  });
  it("formats money, durations and tokens", () => {
    expect([formatUsd(0), formatUsd(0.0042), formatUsd(1.5)]).toEqual(["$0", "$0.0042", "$1.50"]);
    // Four significant digits below $1: $0.0165 against a $0.015 limit is not "$0.02 >= $0.01".
    expect([formatUsd(0.0165), formatUsd(0.015), formatUsd(0.1), formatUsd(0.123456), formatUsd(0.00012346)]).toEqual([
      "$0.0165",
      "$0.015",
      "$0.10",
      "$0.1235",
      "$0.0001235",
    ]);
    expect([
      formatDuration(950),
      formatDuration(12_000),
      formatDuration(245_000),
      formatDuration(7_380_000),
      formatDuration(null),
    ]).toEqual(["950 ms", "12 s", "4 min 05 s", "2 h 03 min", "—"]);
    expect([formatTokens(950), formatTokens(12_345), formatTokens(4_100_000)]).toEqual(["950", "12k", "4.1M"]);
  });
  it("names statuses and stop types honestly", () => {
    expect(statusDisplay("interrupting")).toEqual({ label: "interrupting…", tone: "warn" });
    // Every status the server can send has its words: the map is keyed by the router's enum, so a new
    // status fails to compile until it is named; an event's string is checked before use.
    expect(statusDisplay("waiting_for_limit").label).toBe("waiting for usage limit");
    expect(isLoopStatus("some_new_state")).toBe(false);
    expect(isLoopStatus("terminated")).toBe(false); // a health state, not a status
    expect(isLoopStatus("needs_attention")).toBe(true);
    expect(stopTypeLabel("budget_exhausted")).toBe("budget exhausted");
    expect(stopTypeLabel(null)).toBeNull();
    expect(stopTypeLabel("race_lost")).toBe("another contender won the race");
  });
  it("clamps the budget share", () => {
    expect([budgetShare(2, 1), budgetShare(0.5, 1), budgetShare(1, null)]).toEqual([1, 0.5, null]);
  });
});

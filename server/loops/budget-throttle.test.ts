import { describe, expect, it } from "vitest";
import { createLoop } from "../engine";
import { FakeClock } from "../../test/engine-fakes";
import { budgetThrottleOf } from "./budget-throttle";

const base = createLoop("g", { budget: { maxCostUsd: 1, throttleAt: 0.8 } }, new FakeClock(0));
const spent = (costUsd: number, throttledUntil: number | null) => ({
  ...base,
  ledger: { ...base.ledger, totals: { ...base.ledger.totals, costUsd }, throttles: 1, throttledUntil },
});

describe("budgetThrottleOf", () => {
  it("a loop waiting on its budget's throttle gets the facts the page says it with (issue 31: a bare 'waiting')", () => {
    expect(budgetThrottleOf("waiting", spent(0.85, 5_000))).toEqual({
      usedFraction: 0.85,
      costUsd: 0.85,
      maxCostUsd: 1,
      tokens: 0,
      maxTokens: 0,
      throttleAt: 0.8,
      denyAt: 1,
      untilMs: 5_000,
    });
  });

  it("is null for any other wait: pacing, below the threshold, not waiting, no checkpoint", () => {
    expect(budgetThrottleOf("waiting", spent(0.85, null))).toBeNull();
    expect(budgetThrottleOf("waiting", spent(0.5, 5_000))).toBeNull();
    expect(budgetThrottleOf("running", spent(0.85, 5_000))).toBeNull();
    expect(budgetThrottleOf("waiting", null)).toBeNull();
  });
});

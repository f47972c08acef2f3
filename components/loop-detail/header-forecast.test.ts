import { describe, expect, it } from "vitest";
import { budgetThrottleText, headerForecast, iterationCount } from "./header-forecast";

const forecast = {
  projectedCostToFinish: 0.4,
  projectedTotalCost: 0.5,
  remainingIterations: 8,
  iterationsUntilExhausted: null,
};
const base = { ended: false, etaMs: 49_000, remaining: 8, forecast };

describe("header forecast", () => {
  it("a running loop forecasts its ETA and cost to finish", () => {
    const f = headerForecast({ ...base, status: "running" });
    expect(f.eta).toMatch(/^≈ /);
    expect(f.etaHint).toBe("8 iterations at most");
    expect(f.cost).toMatch(/^≈ \$0\.40?/);
    expect(f.costHint).toMatch(/^total ≈/);
  });

  it.each([
    ["awaiting_approval", "waiting for approval"],
    ["needs_attention", "waiting for an answer"],
    ["paused", "paused"],
    ["waiting_for_limit", "waiting for the usage limit"],
    ["draft", "not started"],
  ])("%s: no ETA or cost to finish, only %s", (status, text) => {
    const f = headerForecast({ ...base, status });
    expect(f).toEqual({ eta: text, cost: text });
  });

  it("an ended loop is finished, with nothing left to spend", () => {
    expect(headerForecast({ ...base, status: "completed", ended: true })).toEqual({ eta: "finished", cost: "—" });
  });

  it("says when the budget runs out before the iterations do", () => {
    const f = headerForecast({ ...base, status: "running", forecast: { ...forecast, iterationsUntilExhausted: 3 } });
    expect(f.costHint).toBe("budget runs out in ~3 iterations");
  });

  it("counts iterations as the limit does: one stopped by a usage limit is named, not counted (issue 31: '7 / 6')", () => {
    expect(iterationCount(7, 6, 1)).toEqual({ value: "6 / 6", note: "+1 stopped by a usage limit, not counted" });
    expect(iterationCount(4, 6, 0)).toEqual({ value: "4 / 6", note: null });
  });

  it("a loop throttled by its budget says so, not an ETA from the last iterations' pace (issue 31: '≈ 38 ms')", () => {
    const f = headerForecast({ ...base, etaMs: 38, status: "waiting", throttled: true });
    expect(f.eta).toBe("throttled by budget");
    expect(f.etaHint).toBe("each iteration waits first");
  });

  it("says why a throttled loop waits, the limit and what to do", () => {
    const facts = {
      usedFraction: 0.82,
      costUsd: 0.82,
      maxCostUsd: 1,
      tokens: 0,
      maxTokens: 0,
      throttleAt: 0.8,
      denyAt: 1,
      untilMs: 1_500,
    };
    expect(budgetThrottleText(facts)).toEqual({
      title: "Throttled by budget: 82% used ($0.82 of the $1.00 budget)",
      detail:
        "From 80% of the budget every iteration waits before it starts, longer each time; at 100% the loop stops.",
      action: "To go on at full pace, raise the budget with Edit limits; to stop here, Terminate.",
    });
    const tokens = { ...facts, maxCostUsd: 0, tokens: 8_200, maxTokens: 10_000 };
    expect(budgetThrottleText(tokens).title).toBe("Throttled by budget: 82% used (8,200 of 10,000 budgeted tokens)");
  });
});

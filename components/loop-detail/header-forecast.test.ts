import { describe, expect, it } from "vitest";
import { headerForecast, iterationCount } from "./header-forecast";

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
});

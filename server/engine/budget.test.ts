import { describe, expect, it } from "vitest";
import * as b from "./budget";
import { parseLoopConfig } from "./config.schema";

const cfg = (budget: Record<string, unknown>) => parseLoopConfig({ budget }).budget;
const rec = (iteration: number, costUsd: number, extra: Partial<b.ConsumptionRecord> = {}): b.ConsumptionRecord => ({
  iteration,
  agentId: `a${iteration}`,
  attempt: 1,
  at: 0,
  input: 1000,
  output: 200,
  cache: 0,
  costUsd,
  toolCalls: 2,
  ...extra,
});
const ledger = (...records: b.ConsumptionRecord[]) => records.reduce(b.recordConsumption, b.createLedger());

describe("token economics", () => {
  // [name, budget, cost of each iteration so far, action, throttle delay]
  it.each<[string, Record<string, unknown>, number[], b.BudgetCheck["action"], number]>([
    ["no budget", {}, [100], "ALLOW", 0],
    ["below throttle", { maxCostUsd: 10 }, [1, 1, 1], "ALLOW", 0],
    ["throttle band", { maxCostUsd: 10 }, [2, 2, 2, 2], "THROTTLE", 1000],
    ["deny at 100%", { maxCostUsd: 10 }, [10], "DENY", 0],
    ["deny when the next iteration would pass", { maxCostUsd: 10 }, [3, 3, 3], "DENY", 0],
    ["the largest recent iteration is expected", { maxCostUsd: 10 }, [1, 4, 1, 1], "DENY", 0],
    ["only the last 5 iterations count", { maxCostUsd: 20 }, [8, 1, 1, 1, 1, 1], "ALLOW", 0],
    ["meeting the budget exactly is allowed", { maxCostUsd: 0.015 }, [0.005, 0.005], "ALLOW", 0],
    ["denyAt below 100% is the ceiling", { maxCostUsd: 10, throttleAt: 0.5, denyAt: 0.5 }, [2, 2], "DENY", 0],
    ["alert only past the limit", { maxCostUsd: 10, mode: "alert_only" }, [12], "ALERT_ONLY", 0],
    ["alert only never denies ahead", { maxCostUsd: 10, mode: "alert_only" }, [3, 3, 3], "ALERT_ONLY", 0],
    ["token budget alone", { maxTokens: 1000 }, [0], "DENY", 0],
    ["token budget ahead", { maxTokens: 3000 }, [0, 0], "DENY", 0],
  ])("%s", (_name, budget, costs, action, delay) => {
    const check = b.checkBudget(ledger(...costs.map((cost, i) => rec(i + 1, cost))), cfg(budget));
    expect(check.action).toBe(action);
    expect(check.delayMs).toBe(delay);
  });

  it("a budget of $0.015 at about $0.005 an iteration stops at or below $0.015", () => {
    for (const costs of [
      [0.005, 0.005, 0.005, 0.005],
      [0.0049, 0.0052, 0.0048, 0.005],
      [0.0051, 0.0051, 0.0051],
    ]) {
      let l = b.createLedger();
      for (const [i, cost] of costs.entries()) {
        if (b.checkBudget(l, cfg({ maxCostUsd: 0.015 })).action === "DENY") break;
        l = b.recordConsumption(l, rec(i + 1, cost));
      }
      expect(b.checkBudget(l, cfg({ maxCostUsd: 0.015 })).action).toBe("DENY");
      expect(l.totals.costUsd).toBeLessThanOrEqual(0.015 + 1e-12);
    }
  });

  it("the expected next spend is the most of the last iterations, attempts added up", () => {
    const l = ledger(rec(1, 1), rec(2, 2, { attempt: 1 }), rec(2, 1.5, { attempt: 2 }), rec(3, 1));
    expect(b.expectedNextSpend(l)).toEqual({ cost: 3.5, tokens: 2400, basis: 3 });
    expect(b.expectedNextSpend(l, 1)).toEqual({ cost: 1, tokens: 1200, basis: 1 });
    expect(b.expectedNextSpend(b.createLedger())).toEqual({ cost: 0, tokens: 0, basis: 0 });
  });

  it("says by how much spend went over, and which iteration cost more than expected", () => {
    const l = ledger(rec(1, 0.005), rec(2, 0.005), rec(3, 0.0065));
    const check = b.checkBudget(l, cfg({ maxCostUsd: 0.015 }));
    expect(check.action).toBe("DENY");
    expect(check.overshootUsd).toBeCloseTo(0.0015);
    expect(check.reason).toContain("$0.0165 spent of the $0.015 budget: $0.0015 (10.0%) over");
    expect(check.reason).toContain("iteration 3 cost $0.0065, $0.0015 more than the $0.005 expected");
    expect(b.costOvershoot({ spent: 0.015, limit: 0.015, ledger: l, what: "budget" })).toBeNull();
  });

  it.each<[string, number, number[], string | null]>([
    ["under, with room", 1, [0.2, 0.2], null],
    [
      "next would pass",
      1,
      [0.4, 0.4],
      "$0.80 spent of the $1.00 cost limit; the next iteration is expected to cost about $0.40",
    ],
    ["reached", 0.015, [0.005, 0.005, 0.005], "$0.015 spent of the $0.015 cost limit"],
    ["over", 0.015, [0.005, 0.0115], "$0.0165 spent of the $0.015 cost limit: $0.0015 (10.0%) over"],
    ["no limit", 0, [5], null],
  ])("cost ceiling: %s", (_name, limit, costs, reason) => {
    const l = ledger(...costs.map((cost, i) => rec(i + 1, cost)));
    const hit = b.costCeiling({ spent: l.totals.costUsd, limit, ledger: l, what: "cost limit" });
    if (reason === null) expect(hit).toBeNull();
    else expect(hit?.reason).toContain(reason);
  });

  it("throttle delays back off exponentially up to the cap", () => {
    const c = cfg({ throttleBaseDelayMs: 500, throttleMaxDelayMs: 3000 });
    expect([0, 1, 2, 3, 4].map((n) => b.throttleDelay(n, c))).toEqual([500, 1000, 2000, 3000, 3000]);
  });

  it("the tighter budget decides", () => {
    const totals = ledger(rec(1, 1, { input: 900, output: 0 })).totals;
    expect(b.budgetUsed(totals, cfg({ maxCostUsd: 10, maxTokens: 1000 }))).toBeCloseTo(0.9);
    expect(b.budgetUsed(totals, cfg({}))).toBeNull();
  });

  it("forecasts cost to finish from the trend and iterations until exhaustion", () => {
    // Iteration costs 1, 2, 3 (iteration 3 in two attempts): trend over the last 2 = 2.5.
    const l = ledger(rec(1, 1), rec(2, 2), rec(3, 1, { attempt: 1 }), rec(3, 2, { attempt: 2 }));
    const f = b.forecastBudget(l, cfg({ maxCostUsd: 20 }), 4, 2);
    expect(f.costPerIteration).toBe(2.5);
    expect(f.projectedCostToFinish).toBe(10);
    expect(f.projectedTotalCost).toBe(16);
    expect(f.iterationsUntilExhausted).toBe(5); // (20 - 6) / 2.5 = 5.6
    const tokens = b.forecastBudget(l, cfg({ maxTokens: 10_000 }), 1, 5);
    expect(tokens.tokensPerIteration).toBe(1600);
    expect(tokens.iterationsUntilExhausted).toBe(3); // (10000 - 4800) / 1600 = 3.25
    expect(b.forecastBudget(b.createLedger(), cfg({ maxCostUsd: 5 }), 3).iterationsUntilExhausted).toBeNull();
    expect(b.forecastBudget(l, cfg({}), -1).remainingIterations).toBe(0);
  });

  it("efficiency: tokens per tool call and cache hit rate", () => {
    const l = ledger(rec(1, 1, { input: 300, cache: 700, output: 100, toolCalls: 4 }));
    expect(b.efficiency(l.totals)).toEqual({ tokensPerToolCall: 275, cacheHitRate: 0.7, costPerCall: 1 });
    expect(b.efficiency(b.createLedger().totals)).toEqual({
      tokensPerToolCall: null,
      cacheHitRate: null,
      costPerCall: null,
    });
  });

  it("keeps only recent records but exact totals", () => {
    const many = ledger(...Array.from({ length: b.RECENT_RECORDS + 5 }, (_, i) => rec(i + 1, 1)));
    expect(many.recent).toHaveLength(b.RECENT_RECORDS);
    expect(many.totals.costUsd).toBe(b.RECENT_RECORDS + 5);
  });
});

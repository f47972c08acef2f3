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
  it.each<[string, Record<string, unknown>, number, b.BudgetCheck["action"], number]>([
    ["no budget", {}, 100, "ALLOW", 0],
    ["below throttle", { maxCostUsd: 10 }, 7.9, "ALLOW", 0],
    ["throttle band", { maxCostUsd: 10 }, 8, "THROTTLE", 1000],
    ["deny at 100%", { maxCostUsd: 10 }, 10, "DENY", 0],
    ["alert only past the limit", { maxCostUsd: 10, mode: "alert_only" }, 12, "ALERT_ONLY", 0],
    ["token budget alone", { maxTokens: 1000 }, 0, "DENY", 0],
  ])("%s", (_name, budget, cost, action, delay) => {
    const check = b.checkBudget(ledger(rec(1, cost)), cfg(budget));
    expect(check.action).toBe(action);
    expect(check.delayMs).toBe(delay);
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

import { describe, expect, it } from "vitest";
import { estimateEtaMs, prepareCostChart, prepareTokenChart } from "./cost-chart";
import { point } from "../../test/chart-fixtures";
import { costSummary } from "@/components/loop-detail/charts/chart-summaries";

describe("prepareCostChart", () => {
  it("accumulates cost, counting every attempt of an iteration", () => {
    const chart = prepareCostChart([
      point(1, { costUsd: 0.1 }),
      point(2, { costUsd: 0.05, attempt: 1 }),
      point(2, { costUsd: 0.2, attempt: 2 }),
    ]);
    expect(chart.rows.map((r) => r.cost)).toEqual([0.1, expect.closeTo(0.35, 10)]);
    expect(chart.total).toBeCloseTo(0.35);
    expect(chart.budget).toBeNull();
  });

  it("draws the forecast from the last actual point to the end", () => {
    const chart = prepareCostChart([point(1, { costUsd: 0.1 }), point(2, { costUsd: 0.1 })], {
      budget: 1,
      forecast: { remainingIterations: 8, projectedTotalCost: 1.0, iterationsUntilExhausted: 8 },
    });
    expect(chart.rows).toEqual([
      { iteration: 1, cost: 0.1, forecast: null },
      { iteration: 2, cost: 0.2, forecast: 0.2 },
      { iteration: 10, cost: null, forecast: 1.0 },
    ]);
    expect(chart.budget).toBe(1);
    expect(chart.exhaustedAt).toBeNull();
  });

  it("says where the budget runs out when that comes before the end", () => {
    const chart = prepareCostChart([point(1, { costUsd: 0.3 })], {
      budget: 1,
      forecast: { remainingIterations: 9, projectedTotalCost: 3, iterationsUntilExhausted: 2 },
    });
    expect(chart.exhaustedAt).toBe(3);
  });

  it("starts a forecast from zero before the first iteration", () => {
    const chart = prepareCostChart([], {
      forecast: { remainingIterations: 5, projectedTotalCost: 0, iterationsUntilExhausted: null },
    });
    expect(chart.rows).toEqual([
      { iteration: 0, cost: 0, forecast: 0 },
      { iteration: 5, cost: null, forecast: 0 },
    ]);
  });

  it("never forecasts an end below what was spent (issue 31: '≈ $0 at the end' with $0.04 spent)", () => {
    const spent = [point(1, { costUsd: 0.02 }), point(2, { costUsd: 0.02 })];
    // A forecast read before these iterations (nothing spent then).
    const stale = { remainingIterations: 4, projectedTotalCost: 0, iterationsUntilExhausted: null };
    expect(prepareCostChart(spent, { forecast: stale }).forecastEnd?.total).toBeCloseTo(0.04);
    // With the pace to finish, the end is the drawn spend plus it.
    const paced = prepareCostChart(spent, { forecast: { ...stale, projectedCostToFinish: 0.08 } });
    expect(paced.forecastEnd?.total).toBeCloseTo(0.12);
    expect(paced.rows.at(-1)?.forecast).toBeCloseTo(0.12);
    expect(costSummary(paced, stale)).toBe("$0.04 spent, ≈ $0.12 at the end");
  });

  it("ignores a zero budget", () => {
    expect(prepareCostChart([], { budget: 0 }).budget).toBeNull();
  });
});

describe("prepareTokenChart", () => {
  it("stacks input, output and cache per iteration", () => {
    const rows = prepareTokenChart([
      point(2, { tokensIn: 5, tokensOut: 1, tokensCache: 2 }),
      point(1, { tokensIn: 10, tokensOut: 3, tokensCache: 0 }),
      point(2, { tokensIn: 1, tokensOut: 1, tokensCache: 1, attempt: 2 }),
    ]);
    expect(rows).toEqual([
      { iteration: 1, input: 10, output: 3, cache: 0 },
      { iteration: 2, input: 6, output: 2, cache: 3 },
    ]);
  });
});

describe("estimateEtaMs", () => {
  it("multiplies the median recent duration plus the delay by the iterations left", () => {
    const points = [1000, 5000, 1200, 1100, 900].map((d, i) => point(i + 1, { durationMs: d }));
    expect(estimateEtaMs(points, 3, 100)).toBe((1100 + 100) * 3);
  });
  it("is 0 when nothing is left and null with no history", () => {
    expect(estimateEtaMs([], 0)).toBe(0);
    expect(estimateEtaMs([], 4)).toBeNull();
  });
});

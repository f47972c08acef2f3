import { describe, expect, it } from "vitest";
import { parseLoopConfig } from "./config.schema";
import * as d from "./detectors";
import { createLoop, type LoopSnapshot } from "./snapshot";
import type { StopType } from "./stop-types";
import { FakeClock } from "../../test/engine-fakes";

const clock = new FakeClock(0);

/** A snapshot where every limit is reached, so each detector's own switch is what matters. */
function everythingTriggered(config: Record<string, unknown>): LoopSnapshot {
  const base = createLoop("g", config, clock);
  return {
    ...base,
    state: { ...base.state, iteration: 10, cumulativeCost: 5, consecutiveFailures: 5 },
    breaker: { status: "open", failures: 5, openedAt: 0, trialFailed: true, trips: 2 },
    health: { ...base.health, state: "failing" },
    ledger: { ...base.ledger, totals: { ...base.ledger.totals, costUsd: 5, tokens: 10 } },
    progress: { iterationsWithoutProgress: 5, bestMeanScore: 1, completedCount: 0 },
    last: { ...base.last, meanScore: 1, evidenceComplete: true, claim: { done: true } },
  };
}

const allOn = {
  stop: {
    maxIterations: 10,
    timeout: 1,
    maxCost: 1,
    maxConsecutiveFailures: 3,
    scoreThreshold: 0.9,
    noProgressIterations: 3,
  },
  budget: { maxCostUsd: 1 },
};
const ctx = (snapshot: LoopSnapshot, now = 10_000) => d.detectorContext(snapshot, now);

describe("detectors", () => {
  const cases: [d.StopDetector, StopType][] = [
    [d.circuitBreakerDetector, "circuit_breaker_open"],
    [d.healthFailureDetector, "health_failure"],
    [d.consecutiveFailureDetector, "max_consecutive_failures"],
    [d.scoreThresholdDetector, "score_threshold"],
    [d.completionDetector, "completion"],
    [d.budgetDetector, "budget_exhausted"],
    [d.costLimitDetector, "max_cost"],
    [d.maxIterationDetector, "max_iterations"],
    [d.timeoutDetector, "timeout"],
    [d.noProgressDetector, "no_progress"],
  ];

  it.each(cases)("$name triggers $1", (detector, stopType) => {
    const decision = detector.check(ctx(everythingTriggered(allOn)));
    expect(decision).toMatchObject({ shouldStop: true, stopType });
    expect(decision.reason).not.toBe("");
  });

  it("says max iterations in counted iterations, naming those a usage limit stopped (issue 31: 'Iteration 7 >= 6 max')", () => {
    const base = createLoop("g", { stop: { maxIterations: 6 } }, clock);
    const limited = { ...base, state: { ...base.state, iteration: 7 }, usageLimit: { limitedIterations: 1 } };
    const decision = d.maxIterationDetector.check(ctx(limited as LoopSnapshot));
    expect(decision).toMatchObject({ shouldStop: true, stopType: "max_iterations" });
    expect(decision.reason).toBe("6 of 6 iterations run (1 more stopped by a usage limit, not counted)");
    const plain = { ...base, state: { ...base.state, iteration: 6 } };
    expect(d.maxIterationDetector.check(ctx(plain)).reason).toBe("6 of 6 iterations run");
  });

  it("the default chain: failures, then success evidence, then CD's limits", () => {
    expect(d.createDefaultDetectors().names()).toEqual([
      "circuit_breaker",
      "health_failure",
      "consecutive_failures",
      "score_threshold",
      "completion",
      "budget",
      "cost_limit",
      "max_iterations",
      "timeout",
      "no_progress",
    ]);
    // Switch detectors off one by one from the top: the next in line answers.
    const expected: StopType[] = cases.map(([, t]) => t);
    let snapshot = everythingTriggered(allOn);
    const chain = d.createDefaultDetectors();
    const seen: StopType[] = [];
    const disable: ((s: LoopSnapshot) => LoopSnapshot)[] = [
      (s) => ({ ...s, breaker: { ...s.breaker, trialFailed: false } }),
      (s) => ({ ...s, health: { ...s.health, state: "degraded" } }),
      (s) => ({ ...s, state: { ...s.state, consecutiveFailures: 0 } }),
      (s) => ({ ...s, last: { ...s.last, meanScore: 0.1 } }),
      (s) => ({ ...s, last: { ...s.last, evidenceComplete: false } }),
      (s) => ({ ...s, config: { ...s.config, budget: { ...s.config.budget, maxCostUsd: 0 } } }),
      (s) => ({ ...s, state: { ...s.state, cumulativeCost: 0 } }),
      (s) => ({ ...s, state: { ...s.state, iteration: 1 } }),
      (s) => ({ ...s, config: { ...s.config, stop: { ...s.config.stop, timeout: 0 } } }),
      (s) => ({ ...s, progress: { ...s.progress, iterationsWithoutProgress: 0 } }),
    ];
    for (const off of disable) {
      const decision = chain.check(ctx(snapshot));
      seen.push(decision.stopType);
      snapshot = off(snapshot);
    }
    expect(seen).toEqual(expected);
    expect(chain.check(ctx(snapshot))).toBe(d.CONTINUE);
  });

  it("every disabled-by-0 detector really is off", () => {
    const off = everythingTriggered({
      stop: { timeout: 0, maxCost: 0, maxConsecutiveFailures: 0, scoreThreshold: 0, noProgressIterations: 0 },
      budget: { maxCostUsd: 0, maxTokens: 0 },
    });
    for (const det of [
      d.timeoutDetector,
      d.costLimitDetector,
      d.consecutiveFailureDetector,
      d.scoreThresholdDetector,
      d.noProgressDetector,
      d.budgetDetector,
    ]) {
      expect(det.check(ctx(off, 1e12)).shouldStop).toBe(false);
    }
  });

  it("budget in alert-only mode never stops; success can require the claim", () => {
    const s = everythingTriggered({
      ...allOn,
      budget: { maxCostUsd: 1, mode: "alert_only" },
      completion: { requireClaim: true },
    });
    expect(d.budgetDetector.check(ctx(s)).shouldStop).toBe(false);
    const noClaim = { ...s, last: { ...s.last, claim: { done: false } } };
    expect(d.scoreThresholdDetector.check(ctx(noClaim)).shouldStop).toBe(false);
    expect(d.completionDetector.check(ctx(noClaim)).shouldStop).toBe(false);
    expect(d.completionDetector.check(ctx(s)).shouldStop).toBe(true);
  });

  it("the composite is pluggable", () => {
    const custom: d.StopDetector = {
      name: "custom",
      check: () => ({ shouldStop: true, stopType: "explicit_stop", reason: "custom", metadata: {} }),
    };
    const chain = new d.CompositeDetector().add(d.maxIterationDetector).add(custom);
    expect(chain.size).toBe(2);
    const s = createLoop("g", {}, clock);
    expect(chain.check(ctx(s)).reason).toBe("custom");
    expect(parseLoopConfig({}).stop.maxIterations).toBe(10);
  });
});

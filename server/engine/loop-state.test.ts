import { describe, expect, it } from "vitest";
import * as ls from "./loop-state";

describe("LoopState (OB)", () => {
  it("starts empty and answers queries safely", () => {
    const s = ls.createLoopState(1_000);
    expect(ls.successRate(s)).toBe(0);
    expect(ls.latestScore(s)).toEqual({});
    expect(ls.bestScore(s, "x")).toBe(0);
    expect(ls.elapsed(s, 13_300)).toBeCloseTo(12.3);
    expect(ls.elapsed(s, 0)).toBe(0);
    expect(ls.meanOf({})).toBeNull();
  });

  it("records successes, failures, scores and reflections immutably", () => {
    const s0 = ls.createLoopState(0, 2);
    let s = ls.startIteration(s0);
    s = ls.recordFailure(s, { cost: 0.5, tokens: 10 });
    s = ls.recordFailure(s);
    expect(s.consecutiveFailures).toBe(2);
    s = ls.recordSuccess(s, { tokens: 100, cost: 1 });
    s = ls.recordSuccess(s);
    s = ls.recordSpend(s, { tokens: 5 });
    expect(s).toMatchObject({
      iteration: 1,
      consecutiveFailures: 0,
      successfulSteps: 2,
      failedSteps: 2,
      totalTokens: 115,
      cumulativeCost: 1.5,
    });
    expect(ls.successRate(s)).toBe(0.5);
    s = ls.recordScore(s, { a: 0.9, b: 0.1 });
    s = ls.recordScore(s, { a: 0.2, b: 0.5 });
    s = ls.recordScore(s, { a: 0.3 });
    expect(s.scoreHistory).toEqual([{ a: 0.2, b: 0.5 }, { a: 0.3 }]);
    expect(ls.bestScore(s, "a")).toBe(0.9);
    expect(ls.bestScore(s, "b")).toBe(0.5);
    expect(ls.latestScore(s)).toEqual({ a: 0.3 });
    const r = { summary: "x", keyFindings: [], rootCauses: [], insights: [], suggestions: [] };
    s = ls.recordReflection(
      ls.recordReflection(ls.recordReflection(s, { ...r, iteration: 1 }), { ...r, iteration: 2 }),
      { ...r, iteration: 3 },
    );
    expect(s.reflectionHistory.map((x) => x.iteration)).toEqual([2, 3]);
    expect(s0.iteration).toBe(0);
  });

  it("round-trips through JSON and rejects garbage", () => {
    const s = ls.recordScore(ls.recordSuccess(ls.createLoopState(5)), { a: 1 });
    expect(ls.loopStateFromJSON(ls.loopStateToJSON(s))).toEqual(s);
    expect(ls.loopStateFromJSON(JSON.parse(ls.loopStateToJSON(s)))).toEqual(s);
    expect(() => ls.loopStateFromJSON('{"iteration":-1}')).toThrow();
  });

  it("has OB's repr", () => {
    const s = ls.recordSuccess(
      ls.recordSuccess(
        ls.recordSuccess(ls.recordSuccess(ls.recordFailure({ ...ls.createLoopState(0), iteration: 5 }))),
      ),
    );
    expect(ls.describeLoopState(s, 12_300)).toBe("LoopState(iteration=5, success_rate=80.0%, elapsed=12.3s)");
  });
});

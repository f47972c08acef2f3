import { describe, expect, it } from "vitest";
import { applyConfigPatch, LoopConfigError, loopConfigSchema, parseLoopConfig } from "./config.schema";

describe("loop config", () => {
  it("fills every section with the documented defaults", () => {
    const c = parseLoopConfig({});
    expect(c.validation).toEqual({ enabled: true, scorerNames: [], minScoreThreshold: 0.5, parallel: 4, timeout: 0 });
    expect(c.reflection).toEqual({ enabled: true, level: "medium", maxHistory: 50 });
    expect(c.stop).toEqual({
      maxIterations: 10,
      timeout: 0,
      iterationTimeout: 2700,
      maxCost: 0,
      maxConsecutiveFailures: 3,
      scoreThreshold: 0,
      noProgressIterations: 3,
      enableUserInterrupt: true,
    });
    expect(c.verification).toEqual({ answerMaxChars: 4000 });
    expect(c.question).toEqual({ policy: "ask" });
    expect(c.completion.allowNoEvidence).toBe(false);
    expect(c.handoff).toMatchObject({ contextThreshold: 0.7, tokenBudgetThreshold: 0.8, errorThreshold: 3 });
    expect(c.health).toMatchObject({ nudgesBeforeEscalation: 3, breaker: { failureThreshold: 5, cooldown: 60 } });
    expect(c.budget).toMatchObject({ throttleAt: 0.8, denyAt: 1, mode: "enforce" });
    expect(c.approvals.beforeCompletion).toEqual({ enabled: false, deadline: 3600, defaultAction: "approve" });
    expect(c.pacing.delayMs).toBe(0);
    expect(parseLoopConfig(undefined)).toEqual(c);
  });

  it.each([
    [{ validation: { minScoreThreshold: 1.5 } }, "validation.minScoreThreshold must be within [0,1]"],
    [{ validation: { minScoreThreshold: -0.1 } }, "validation.minScoreThreshold must be within [0,1]"],
    [{ stop: { maxIterations: 0 } }, "stop.maxIterations must be >= 1"],
    [{ stop: { maxIterations: 2.5 } }, "stop.maxIterations must be a whole number"],
    [{ stop: { maxCost: -1 } }, "stop.maxCost must not be negative"],
    [{ stop: { timeout: -5 } }, "stop.timeout must not be negative"],
    [{ budget: { maxTokens: -1 } }, "budget.maxTokens must not be negative"],
    [{ budget: { throttleAt: 0.9, denyAt: 0.5 } }, "budget.denyAt must be >= throttleAt"],
    [{ retry: { minDelayMs: 5000, maxDelayMs: 10 } }, "retry.maxDelayMs must be >= minDelayMs"],
    [{ health: { breaker: { failureThreshold: 0 } } }, "health.breaker.failureThreshold must be >= 1"],
    [{ approvals: { budget: { percents: [120] } } }, "approvals.budget.percents.0 must be <= 100"],
  ])("rejects %j with a message naming the field", (input, message) => {
    expect(() => parseLoopConfig(input)).toThrow(LoopConfigError);
    try {
      parseLoopConfig(input);
    } catch (error) {
      expect((error as LoopConfigError).issues).toContain(message);
      expect((error as Error).message).toContain(message);
    }
  });

  it("labels fields for the generated form", () => {
    const stop = loopConfigSchema.shape.stop;
    expect(stop.description).toBe("Halt: stop conditions");
    expect(stop.unwrap().shape.maxIterations.description).toBe("Maximum iterations");
    expect(loopConfigSchema.shape.validation.unwrap().shape.minScoreThreshold.description).toBe(
      "Reflect when the mean score is below",
    );
    expect(loopConfigSchema.shape.approvals.unwrap().shape.periodic.description).toBe("Gate every N iterations");
  });

  it("applies patches and re-validates the whole", () => {
    const base = parseLoopConfig({ stop: { maxIterations: 4 } });
    const next = applyConfigPatch(base, { stop: { maxCost: 2 } });
    expect(next.stop).toMatchObject({ maxIterations: 4, maxCost: 2 });
    expect(() => applyConfigPatch(base, { stop: { maxIterations: 0 } })).toThrow("stop.maxIterations must be >= 1");
    expect(() => applyConfigPatch(base, [1])).toThrow("patch must be an object");
    expect(applyConfigPatch(base, { validation: { scorerNames: ["a"] } }).validation.scorerNames).toEqual(["a"]);
  });
});

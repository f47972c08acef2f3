import { describe, expect, it } from "vitest";
import * as engine from "./index";
import { EventLog } from "./events";
import { beforeIteration } from "./preflight";
import { killReason } from "./run-phase";
import { cancelLoop, runLoop } from "./runner";
import { createLoop } from "./snapshot";
import { FakeClock, FakeControls, hangingStep, result, ScriptedAgent } from "../../test/engine-fakes";

describe("public surface", () => {
  it("exports the drivers, ports helpers and pure functions from index", () => {
    for (const name of [
      "createLoop",
      "beforeIteration",
      "runIteration",
      "step",
      "runLoop",
      "buildCheckpoint",
      "restoreFromCheckpoint",
      "canonicalJson",
      "upgradeSnapshot",
      "uuidv7",
      "parseLoopConfig",
      "isSuccess",
      "isFailure",
      "shouldHandoff",
      "continuationPrompt",
      "checkBudget",
      "forecastBudget",
      "evaluateHealth",
      "ralph",
      "exponentialBackoff",
      "fixedDelay",
      "noDelay",
      "compose",
      "createDefaultDetectors",
      "killReason",
    ]) {
      expect(typeof (engine as Record<string, unknown>)[name]).toBe("function");
    }
    expect(engine.loopConfigSchema.shape.stop).toBeDefined();
  });
});

describe("odds and ends", () => {
  it("the wall clock starts at the first run, not at creation", () => {
    const clock = new FakeClock(0);
    const snapshot = createLoop("g", { stop: { timeout: 10 } }, clock);
    const pre = beforeIteration(snapshot, [], { now: () => 3_600_000 });
    expect(pre.decision).toEqual({ kind: "run" });
    expect(pre.snapshot.state.startTime).toBe(3_600_000);
  });

  it("rejects an empty goal", () => {
    expect(() => createLoop("  ", {}, new FakeClock())).toThrow("goal must not be empty");
  });

  it("a throwing or rejecting event sink never breaks the loop", async () => {
    const clock = new FakeClock();
    for (const sink of [
      {
        emit: () => {
          throw new Error("sink down");
        },
      },
      { emit: () => Promise.reject(new Error("async down")) },
    ]) {
      const out = await runLoop({
        goal: "g",
        config: { stop: { maxIterations: 1 } },
        ports: { agent: new ScriptedAgent([{}], clock), events: sink },
        deps: clock,
      });
      expect(out.stopType).toBe("max_iterations");
    }
    const log = new EventLog({ loopId: "l", now: () => 1 });
    log.push(0, "engine", "x", { type: "agent_progress", agentId: "a", progress: { kind: "heartbeat" } });
    expect(log.events).toHaveLength(0);
  });

  it("a kill while paused between iterations halts as user_interrupted", () => {
    const clock = new FakeClock();
    const snapshot = createLoop("g", {}, clock);
    expect(cancelLoop(snapshot, 5, killReason("ops")).snapshot.halt).toMatchObject({
      stopType: "user_interrupted",
      actor: "ops",
    });
    expect(cancelLoop(snapshot, 5, new Error("shutdown")).snapshot.halt).toMatchObject({
      stopType: "cancelled",
      reason: "shutdown",
    });
  });

  it("kill is ignored mid-run when user interrupts are disabled", async () => {
    const clock = new FakeClock();
    const controls = new FakeControls();
    controls.add({ kind: "kill" });
    const out = await runLoop({
      goal: "g",
      config: {
        stop: { enableUserInterrupt: false, maxIterations: 1 },
        retry: { attemptTimeout: 60, maxAttempts: 1 },
        health: { checkInterval: 10 },
      },
      ports: { agent: new ScriptedAgent([hangingStep()], clock) },
      controls,
      deps: clock,
    });
    expect(out.records[0]?.error).toBe("Agent call timed out after 60s");
    expect(controls.acks[0]).toMatchObject({ outcome: "rejected", note: "user interrupts are disabled by config" });
  });

  it("a control source outage is survived", async () => {
    const clock = new FakeClock();
    const broken = {
      read: async () => {
        throw new Error("db down");
      },
      settle: async () => {
        throw new Error("db down");
      },
    };
    const out = await runLoop({
      goal: "g",
      config: { stop: { maxIterations: 2 }, health: { checkInterval: 1 } },
      ports: { agent: new ScriptedAgent([async (_r, c) => (await c.sleep(5000), result())], clock) },
      controls: broken,
      deps: clock,
    });
    expect(out.stopType).toBe("max_iterations");
  });

  it("the report summarises totals, efficiency and the forecast", async () => {
    const clock = new FakeClock();
    const out = await runLoop({
      goal: "g",
      config: { stop: { maxIterations: 2 }, budget: { maxCostUsd: 10 } },
      ports: {
        agent: new ScriptedAgent(
          [{ costUsd: 1, usage: { input: 600, output: 100, cache: 400 }, toolCalls: ["a", "b"] }],
          clock,
        ),
      },
      deps: clock,
    });
    expect(out.report).toMatchObject({
      iterations: 2,
      costUsd: 2,
      tokens: 2200,
      success: false,
      failure: false,
      status: "stopped",
      efficiency: { tokensPerToolCall: 550, cacheHitRate: 0.4, costPerCall: 1 },
      forecast: { costPerIteration: 1, remainingIterations: 0, iterationsUntilExhausted: 8 },
    });
    expect(out.lastCheckpoint?.metadata.iteration).toBe(2);
  });
});

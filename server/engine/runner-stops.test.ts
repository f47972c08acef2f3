import { describe, expect, it } from "vitest";
import type { StopDetector } from "./detectors";
import type { EnginePorts } from "./ports";
import { killReason } from "./run-phase";
import { runLoop } from "./runner";
import { stopOutcome, type StopType } from "./stop-types";
import {
  CollectingSink,
  FakeClock,
  FakeControls,
  hangingStep,
  ScriptedAgent,
  type AgentStep,
} from "../../test/engine-fakes";

const score = (value: number) => ({ name: "s", score: () => ({ score: value }) });
const failing: AgentStep = new Error("model overloaded");
const slow =
  (ms: number): AgentStep =>
  async (_req, clock) => {
    await clock.sleep(ms);
    return {
      output: "slow",
      claim: { done: false },
      usage: { input: 1, output: 1, cache: 0 },
      costUsd: 0,
      toolCalls: [],
    };
  };

interface Scenario {
  name: StopType;
  config: Record<string, unknown>;
  steps: AgentStep[];
  ports?: (clock: FakeClock) => Partial<EnginePorts>;
  iterations: number;
}

const quietRetry = { retry: { maxAttempts: 1, strategy: "none" } };

const scenarios: Scenario[] = [
  {
    name: "completion",
    config: { verification: { enabled: true } },
    steps: [{}],
    iterations: 1,
    ports: () => ({ verifier: { verify: async () => ({ complete: true, reason: "done" }) } }),
  },
  {
    name: "score_threshold",
    config: { stop: { scoreThreshold: 0.7 } },
    steps: [{}],
    iterations: 1,
    ports: () => ({ scorers: [score(0.8)] }),
  },
  { name: "max_iterations", config: { stop: { maxIterations: 2 } }, steps: [{}], iterations: 2 },
  { name: "timeout", config: { stop: { timeout: 100 } }, steps: [slow(60_000)], iterations: 2 },
  // $0.80 spent + $0.40 expected would pass the $1 limit: it stops at 2, below the limit, not at $1.20.
  { name: "max_cost", config: { stop: { maxCost: 1 } }, steps: [{ costUsd: 0.4 }], iterations: 2 },
  {
    name: "budget_exhausted",
    config: { budget: { maxCostUsd: 1, throttleAt: 1 }, stop: { maxCost: 1 } },
    steps: [{ costUsd: 0.5 }],
    iterations: 2,
  },
  { name: "max_consecutive_failures", config: quietRetry, steps: [failing], iterations: 3 },
  { name: "no_progress", config: {}, steps: [{}], iterations: 4, ports: () => ({ scorers: [score(0.3)] }) },
  {
    name: "health_failure",
    config: { ...quietRetry, stop: { maxConsecutiveFailures: 0 }, health: { failingAfterErrors: 2 } },
    steps: [failing],
    iterations: 2,
  },
  {
    name: "circuit_breaker_open",
    config: {
      ...quietRetry,
      stop: { maxConsecutiveFailures: 0 },
      health: { breaker: { failureThreshold: 2, cooldown: 60 } },
    },
    steps: [failing],
    iterations: 3,
  },
];

describe("every stop type, end to end", () => {
  it.each(scenarios)("$name", async ({ name, config, steps, ports, iterations }) => {
    const clock = new FakeClock();
    const result = await runLoop({
      goal: "goal",
      config,
      ports: { agent: new ScriptedAgent(steps, clock), ...(ports?.(clock) ?? {}) },
      deps: clock,
    });
    expect(result.stopType).toBe(name);
    expect(result.iterations).toBe(iterations);
    expect(result.report.status).toBe(
      stopOutcome(name) === "success" ? "completed" : stopOutcome(name) === "failure" ? "failed" : "stopped",
    );
  });

  it("explicit_stop: an operator terminate at the next safe point", async () => {
    const clock = new FakeClock();
    const controls = new FakeControls();
    controls.onRead = (n, c) => {
      if (n === 2) c.add({ kind: "terminate" }, "bob", "enough");
    };
    const result = await runLoop({
      goal: "g",
      ports: { agent: new ScriptedAgent([{}], clock) },
      controls,
      deps: clock,
    });
    expect(result.stopType).toBe("explicit_stop");
    expect(result.iterations).toBe(1);
    expect(result.snapshot.halt?.actor).toBe("bob");
    expect(controls.acks.map((a) => a.outcome)).toEqual(["applied"]);
  });

  it("a kill aborts the running agent, records the partial iteration and pauses the loop", async () => {
    const clock = new FakeClock();
    const controls = new FakeControls();
    let paused = false;
    controls.onRead = (n, c) => {
      if (n === 3) c.add({ kind: "kill" }, "carol");
      // Once paused, the operator ends the loop; without this it would wait for a resume.
      if (!paused && c.acks.some((a) => a.note.includes("kill applied"))) {
        paused = true;
        c.add({ kind: "terminate" }, "carol", "done here");
      }
    };
    const result = await runLoop({
      goal: "g",
      config: { health: { checkInterval: 10 } },
      ports: { agent: new ScriptedAgent([hangingStep()], clock) },
      controls,
      deps: clock,
    });
    expect(result.stopType).toBe("explicit_stop");
    expect(result.snapshot.state.iteration).toBe(1);
    expect(result.records).toHaveLength(1);
    expect(result.records[0]?.status).toBe("interrupted");
    expect(result.records[0]?.interruptedBy).toEqual({
      kind: "kill",
      by: "carol",
      reason: "operator kill",
      requestId: "req-1",
    });
    expect(controls.acks[0]?.note).toContain("kill applied");
  });

  it("user_interrupted: the runtime may kill through the AbortSignal", async () => {
    const clock = new FakeClock();
    const abort = new AbortController();
    const agent = new ScriptedAgent(
      [
        async (req) => {
          abort.abort(killReason("dave", "stop now"));
          return new Promise((_, reject) => req.signal.addEventListener("abort", () => reject(new Error("killed"))));
        },
      ],
      clock,
    );
    const result = await runLoop({ goal: "g", ports: { agent }, deps: clock, signal: abort.signal });
    expect(result.stopType).toBe("user_interrupted");
    expect(result.snapshot.halt).toMatchObject({ actor: "dave", reason: "stop now" });
  });

  it("cancelled: an external AbortSignal", async () => {
    const clock = new FakeClock();
    const abort = new AbortController();
    const agent = new ScriptedAgent(
      [
        async () => (
          abort.abort(),
          { output: "x", claim: { done: false }, usage: { input: 0, output: 0, cache: 0 }, costUsd: 0, toolCalls: [] }
        ),
      ],
      clock,
    );
    const result = await runLoop({ goal: "g", ports: { agent }, deps: clock, signal: abort.signal });
    expect(result.stopType).toBe("cancelled");
    expect(result.report.status).toBe("cancelled");
  });

  it("cancelled: aborted while waiting between iterations", async () => {
    const clock = new FakeClock();
    const abort = new AbortController();
    const result = await runLoop({
      goal: "g",
      config: { pacing: { delayMs: 5000 } },
      ports: { agent: new ScriptedAgent([{}], clock) },
      deps: clock,
      signal: abort.signal,
      onStep: (outcome) => {
        if (outcome.decision.kind === "wait") abort.abort();
      },
    });
    expect(result.stopType).toBe("cancelled");
    expect(result.iterations).toBe(1);
  });

  it("system_error: a broken custom detector halts with the error", async () => {
    const clock = new FakeClock();
    const broken: StopDetector = {
      name: "broken",
      check: () => {
        throw new Error("detector bug");
      },
    };
    const result = await runLoop({
      goal: "g",
      ports: { agent: new ScriptedAgent([{}], clock) },
      deps: clock,
      detectors: broken,
    });
    expect(result.stopType).toBe("system_error");
    expect(result.reason).toBe("detector bug");
    expect(result.report.status).toBe("failed");
  });

  it("system_error: an approval gate with no control source and no deadline", async () => {
    const clock = new FakeClock();
    const result = await runLoop({
      goal: "g",
      config: { approvals: { periodic: { every: 1, deadline: 0 } } },
      ports: { agent: new ScriptedAgent([{}], clock) },
      deps: clock,
    });
    expect(result.stopType).toBe("system_error");
    expect(result.reason).toContain("control source");
  });
});

describe("priority order", () => {
  it.each<[string, Record<string, unknown>, AgentStep, StopType]>([
    [
      "budget before max_cost",
      { budget: { maxCostUsd: 1, throttleAt: 1 }, stop: { maxCost: 1 } },
      { costUsd: 1 },
      "budget_exhausted",
    ],
    [
      "breaker before consecutive failures",
      { ...quietRetry, stop: { maxConsecutiveFailures: 2 }, health: { breaker: { failureThreshold: 1, cooldown: 0 } } },
      failing,
      "circuit_breaker_open",
    ],
    [
      "health before consecutive failures",
      { ...quietRetry, stop: { maxConsecutiveFailures: 2 }, health: { failingAfterErrors: 2 } },
      failing,
      "health_failure",
    ],
    [
      "consecutive failures before no_progress",
      { ...quietRetry, stop: { noProgressIterations: 3 } },
      failing,
      "max_consecutive_failures",
    ],
    [
      "a success on the last allowed iteration ends completed, not max_iterations",
      { stop: { maxIterations: 1, scoreThreshold: 0.5 } },
      {},
      "score_threshold",
    ],
    [
      "max_iterations when nothing shows success",
      { stop: { maxIterations: 1, scoreThreshold: 0 } },
      {},
      "max_iterations",
    ],
    ["max_cost before max_iterations", { stop: { maxIterations: 1, maxCost: 0.01 } }, {}, "max_cost"],
  ])("%s", async (_name, config, step, expected) => {
    const clock = new FakeClock();
    const result = await runLoop({
      goal: "g",
      config,
      ports: { agent: new ScriptedAgent([step], clock), scorers: [score(1)] },
      deps: clock,
    });
    expect(result.stopType).toBe(expected);
  });
});

describe("a configured verifier", () => {
  // Passes on the third call only: an honest agent that gets there on the last allowed iteration.
  const verifierPassingOn = (n: number) => {
    let calls = 0;
    return {
      verify: async () => (++calls >= n ? { complete: true, reason: "ok" } : { complete: false, reason: "no" }),
    };
  };

  it.each([
    ["is on without verification.enabled", {}, "completion"],
    ["stays off when verification.enabled is false", { verification: { enabled: false } }, "max_iterations"],
  ])("%s", async (_name, extra, expected) => {
    const clock = new FakeClock();
    const result = await runLoop({
      goal: "g",
      config: { ...extra, completion: { evidence: ["verifier"] }, stop: { maxIterations: 3, noProgressIterations: 0 } },
      ports: { agent: new ScriptedAgent([{}], clock), verifier: verifierPassingOn(3) },
      deps: clock,
    });
    expect(result.stopType).toBe(expected);
    expect(result.records).toHaveLength(3);
  });
});

describe("breaker cooldown", () => {
  it("waits out the cooldown, then a successful trial closes the breaker", async () => {
    const clock = new FakeClock();
    const sink = new CollectingSink();
    const start = clock.now();
    const result = await runLoop({
      goal: "g",
      config: {
        ...quietRetry,
        stop: { maxIterations: 4, maxConsecutiveFailures: 0, noProgressIterations: 0 },
        health: { breaker: { failureThreshold: 2, cooldown: 60 } },
      },
      ports: { agent: new ScriptedAgent([failing, failing, {}], clock), events: sink },
      deps: clock,
    });
    expect(result.stopType).toBe("max_iterations");
    const transitions = sink.events.flatMap((e) => (e.type === "breaker_changed" ? [`${e.from}->${e.to}`] : []));
    expect(transitions).toEqual(["closed->open", "open->half_open", "half_open->closed"]);
    expect(clock.now() - start).toBeGreaterThanOrEqual(60_000);
    expect(result.snapshot.breaker.status).toBe("closed");
  });
});

import { describe, expect, it } from "vitest";
import type { AgentRunResult, ReflectorPort, ScorerPort, VerifyRequest } from "./ports";
import { AgentRunError } from "./run-phase";
import { runLoop } from "./runner";
import { CollectingSink, FakeClock, hangingStep, ScriptedAgent, type AgentStep } from "../../test/engine-fakes";
import { schemaValidator, toolCallsValidator } from "./validators";
import { COMPLETION_PROTOCOL } from "./next-input";

const PROTOCOL = `\n\n[Completion protocol]\n${COMPLETION_PROTOCOL}`;

const reflector = (calls: number[]): ReflectorPort => ({
  reflect: async (ctx) => {
    calls.push(ctx.iteration);
    return { summary: "s", keyFindings: [], rootCauses: [], insights: [], suggestions: [`fix ${ctx.iteration}`] };
  },
});
const fixed = (name: string, value: number): ScorerPort => ({ name, score: () => ({ score: value }) });

async function once(config: Record<string, unknown>, steps: AgentStep[], extra = {}) {
  const clock = new FakeClock();
  const agent = new ScriptedAgent(steps, clock);
  const sink = new CollectingSink();
  const result = await runLoop({ goal: "g", config, ports: { agent, events: sink, ...extra }, deps: clock });
  return { result, agent, sink, clock, record: result.records[0]! };
}

describe("Run: retries on the fake clock", () => {
  it("retries agent errors with exponential backoff and jitter, then succeeds", async () => {
    const { record, agent, sink, clock } = await once(
      { stop: { maxIterations: 1 }, retry: { maxAttempts: 3, minDelayMs: 1000, maxDelayMs: 30000 } },
      [new Error("503"), new Error("503 again"), {}],
    );
    expect(record.status).toBe("succeeded");
    expect(record.attempts).toBe(3);
    expect(record.retries.map((r) => r.message)).toEqual(["503", "503 again"]);
    const delays = sink.events.flatMap((e) => (e.type === "agent_retry" ? [e.delayMs] : []));
    expect(delays[0]).toBeGreaterThanOrEqual(1000);
    expect(delays[0]).toBeLessThanOrEqual(2000);
    expect(delays[1]).toBeGreaterThanOrEqual(2000);
    expect(delays[1]).toBeLessThanOrEqual(4000);
    expect(clock.sleeps).toEqual(expect.arrayContaining(delays));
    expect(agent.requests[1]?.input).toContain("[Retry]\nAttempt 2. Earlier attempts failed:\n- 503");
    expect(agent.requests.map((r) => r.agentId)).toEqual(["id-2", "id-2", "id-2"]);
  });

  it("an exhausted retry is an error iteration that feeds back the error", async () => {
    const { result, agent } = await once(
      {
        stop: { maxIterations: 2 },
        retry: { maxAttempts: 2, strategy: "fixed", fixedDelayMs: 10 },
        reflection: { enabled: false },
      },
      [new Error("boom")],
    );
    expect(result.records.map((r) => r.status)).toEqual(["error", "error"]);
    expect(result.records[0]?.error).toBe("boom");
    expect(agent.requests[2]?.input).toBe(`g${PROTOCOL}\n\n[Previous feedback]\n- The previous attempt failed: boom`);
  });

  it("non-retryable errors are not retried, and their spend still counts", async () => {
    const err = new AgentRunError("auth failed", {
      retryable: false,
      usage: { input: 10, output: 0, cache: 0 },
      costUsd: 0.2,
    });
    const { record, result } = await once({ stop: { maxIterations: 1 } }, [err]);
    expect(record.attempts).toBe(1);
    expect(record.costUsd).toBe(0.2);
    expect(result.report.totals.calls).toBe(1);
  });

  it("an attempt that outlives its timeout fails and is retried", async () => {
    const { record } = await once(
      { stop: { maxIterations: 1 }, retry: { attemptTimeout: 5, maxAttempts: 2, strategy: "none" } },
      [hangingStep(), {}],
    );
    expect(record.retries[0]?.message).toBe("Agent call timed out after 5s");
    expect(record.status).toBe("succeeded");
  });

  it("every iteration is a fresh agent with its own id", async () => {
    const { agent } = await once({ stop: { maxIterations: 3, noProgressIterations: 0 } }, [{}]);
    const ids = agent.requests.map((r) => r.agentId);
    expect(new Set(ids).size).toBe(3);
  });
});

describe("Analyze", () => {
  it("runs at most `parallel` scorers at once and times out slow ones", async () => {
    let active = 0;
    let peak = 0;
    const slowScorer = (name: string, ms: number, clock: FakeClock): ScorerPort => ({
      name,
      score: async () => {
        active++;
        peak = Math.max(peak, active);
        await clock.sleep(ms);
        active--;
        return { score: 0.9 };
      },
    });
    const clock = new FakeClock();
    const scorers = [
      slowScorer("a", 100, clock),
      slowScorer("b", 100, clock),
      slowScorer("c", 100, clock),
      slowScorer("slow", 60_000, clock),
    ];
    const out = await runLoop({
      goal: "g",
      config: { stop: { maxIterations: 1 }, validation: { parallel: 2, timeout: 1 } },
      ports: { agent: new ScriptedAgent([{}], clock), scorers },
      deps: clock,
    });
    const record = out.records[0]!;
    expect(peak).toBe(2);
    expect(record.scores).toEqual({ a: 0.9, b: 0.9, c: 0.9, slow: 0 });
    expect(record.scoreReasons.slow).toBe("timed out after 1s");
  });

  it("clamps scores, zeroes broken scorers and honours scorerNames", async () => {
    const broken: ScorerPort = {
      name: "broken",
      score: () => {
        throw new Error("nope");
      },
    };
    const { record } = await once(
      { stop: { maxIterations: 1 }, validation: { scorerNames: ["high", "broken", "nan"] } },
      [{}],
      {
        scorers: [fixed("high", 7), broken, fixed("nan", Number.NaN), fixed("ignored", 1)],
      },
    );
    expect(record.scores).toEqual({ high: 1, broken: 0, nan: 0 });
    expect(record.scoreReasons.broken).toBe("error: nope");
    expect(record.meanScore).toBeCloseTo(1 / 3);
  });

  it("scoring disabled records no scores", async () => {
    const { record } = await once({ stop: { maxIterations: 1 }, validation: { enabled: false } }, [{}], {
      scorers: [fixed("a", 1)],
    });
    expect(record.scores).toEqual({});
    expect(record.meanScore).toBeNull();
  });

  it("failing validators fail the iteration and feed [Validation]; passing ones are evidence", async () => {
    const validators = [schemaValidator({ required: ["summary"] }), toolCallsValidator({ minToolCalls: 1 })];
    const steps: AgentStep[] = [{ output: '{"other":1}' }, { output: '{"summary":"ok"}', toolCalls: ["edit"] }];
    const { result, agent } = await once({ reflection: { enabled: false } }, steps, { validators });
    expect(result.records[0]?.status).toBe("failed");
    expect(agent.requests[1]?.input).toBe(
      `g${PROTOCOL}\n\n[Validation]\n- missing required field "summary"\n- expected at least 1 tool call(s), got 0`,
    );
    expect(result.stopType).toBe("completion");
    expect(result.records[1]?.evidence.checks).toEqual([
      { source: "validators", complete: true, detail: "all validators pass", counted: true },
    ]);
  });

  it("validators see structured data from the adapter first", async () => {
    const { result } = await once({}, [{ output: "prose", data: { summary: "x" } }], {
      validators: [schemaValidator({ required: ["summary"] })],
    });
    expect(result.stopType).toBe("completion");
  });
});

describe("Verify", () => {
  it("runs on every iteration, the last too, with truncated answers plus previous results", async () => {
    const requests: VerifyRequest[] = [];
    const verifier = {
      verify: async (r: VerifyRequest) => (requests.push(r), { complete: false, reason: `no ${r.iteration}` }),
    };
    const { result } = await once(
      { verification: { enabled: true }, stop: { maxIterations: 3, noProgressIterations: 0 } },
      [{ output: "x".repeat(5000) }],
      { verifier },
    );
    expect(requests.map((r) => r.iteration)).toEqual([1, 2, 3]);
    expect(requests[0]?.answer).toHaveLength(4000);
    expect(requests[1]?.previousResults).toEqual([
      { iteration: 1, answer: "x".repeat(4000), complete: false, reason: "no 1" },
    ]);
    expect(result.records[2]?.verification).toEqual({ status: "incomplete", reason: "no 3" });
  });

  it("a throwing verifier is recorded, not fatal", async () => {
    const verifier = {
      verify: async () => {
        throw new Error("llm down");
      },
    };
    const { record } = await once({ verification: { enabled: true }, stop: { maxIterations: 2 } }, [{}], { verifier });
    expect(record.verification).toEqual({ status: "error", reason: "verifier error: llm down" });
    expect(record.evidence.complete).toBeNull();
  });
});

describe("Learn: the reflection trigger rule", () => {
  it.each<[string, Record<string, unknown>, AgentStep, ScorerPort[], boolean]>([
    ["mean below minScoreThreshold", {}, {}, [fixed("a", 0.4)], true],
    ["mean at the threshold", {}, {}, [fixed("a", 0.5)], false],
    ["agent error", { retry: { maxAttempts: 1 } }, new Error("x"), [], true],
    ["no scores and a good run", {}, {}, [], false],
    ["reflection disabled", { reflection: { enabled: false } }, {}, [fixed("a", 0)], false],
  ])("%s", async (_name, config, stepDef, scorers, expected) => {
    const calls: number[] = [];
    const { record } = await once({ ...config, stop: { maxIterations: 1 } }, [stepDef], {
      scorers,
      reflector: reflector(calls),
    });
    expect(calls.length > 0).toBe(expected);
    expect(record.reflection !== null).toBe(expected);
  });

  it("keeps the reflection history bounded by maxHistory", async () => {
    const calls: number[] = [];
    const { result } = await once(
      { reflection: { maxHistory: 2 }, stop: { maxIterations: 4, noProgressIterations: 0 } },
      [{}],
      {
        scorers: [fixed("a", 0.1)],
        reflector: reflector(calls),
      },
    );
    expect(calls).toEqual([1, 2, 3, 4]);
    expect(result.reflections.map((r) => r.iteration)).toEqual([3, 4]);
    expect(result.state.scoreHistory).toHaveLength(2);
  });

  it("a broken reflector leaves no reflection", async () => {
    const { record } = await once({ stop: { maxIterations: 1 } }, [{}], {
      scorers: [fixed("a", 0)],
      reflector: {
        reflect: async () => {
          throw new Error("bad json");
        },
      },
    });
    expect(record.reflection).toBeNull();
  });
});

describe("Plan: handoff", () => {
  it("hands off when the context is over 70% and carries the continuation", async () => {
    const big: Partial<AgentRunResult> = {
      usage: { input: 150_000, output: 5_000, cache: 0 },
      progress: {
        completedItems: ["a"],
        pendingItems: ["b"],
        blockedItems: [{ item: "c", reason: "needs key" }],
        decisions: ["use zod"],
        nextSteps: ["do b"],
      },
    };
    const { result, agent } = await once({ stop: { maxIterations: 2 } }, [big, {}]);
    expect(result.records[0]?.handoffTrigger).toBe("context_threshold");
    const prompt = agent.requests[1]?.continuation ?? "";
    expect(prompt).toBe(
      [
        "## Handoff from Iteration 1",
        "**Phase:** PLANNING",
        "**Last Agent:** id-2",
        `**Checkpoint:** ${result.records[0]?.checkpointId}`,
        "",
        "### Completed",
        "- a",
        "",
        "### Pending",
        "- b",
        "",
        "### Blocked",
        "- c: needs key",
        "",
        "### Key Decisions",
        "- use zod",
        "",
        "### Next Steps",
        "- do b",
      ].join("\n"),
    );
    expect(agent.requests[1]?.input.endsWith(`[Continuation]\n${prompt}`)).toBe(true);
  });
});

describe("completion signal", () => {
  it("the configured signal is announced in the protocol and handed to the adapter", async () => {
    const { agent } = await once(
      { stop: { maxIterations: 1 }, completion: { allowNoEvidence: true, signal: "<done>SHIPPED</done>" } },
      [{}],
    );
    expect(agent.requests[0]?.input).toContain("end your final message with <done>SHIPPED</done>.");
    expect(agent.requests[0]?.completionSignal).toBe("<done>SHIPPED</done>");
  });

  it("defaults to the Ralph tag", async () => {
    const { agent } = await once({ stop: { maxIterations: 1 }, completion: { allowNoEvidence: true } }, [{}]);
    expect(agent.requests[0]?.completionSignal).toBe("<promise>COMPLETE</promise>");
    expect(agent.requests[0]?.input).toContain(COMPLETION_PROTOCOL);
  });
});

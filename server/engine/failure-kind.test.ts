import { describe, expect, it } from "vitest";
import { CollectingSink, FakeClock, hangingStep, ScriptedAgent, type AgentStep } from "../../test/engine-fakes";
import { errorFailureKind, iterationDiagnostics, IterationTimeoutError } from "./failure-kind";
import { runLoop } from "./runner";
import { AgentRunError, AgentTimeoutError } from "./run-phase";

/** An adapter error as server/agents throws it: the engine reads `code` and `details` as plain data. */
function adapterError(code: string, details: Record<string, unknown> = {}) {
  return Object.assign(new AgentRunError(`failed: ${code}`, { retryable: false, ...details }), { code });
}

describe("failure kinds", () => {
  it.each([
    [new IterationTimeoutError(12), "timeout"],
    [new AgentTimeoutError(5000), "timeout"],
    [adapterError("timeout"), "timeout"],
    [adapterError("exit_nonzero", { exitCode: 2 }), "crash"],
    [adapterError("spawn_failed"), "crash"],
    [adapterError("agent_reported_error", { subtype: "error_during_execution" }), "agent_error"],
    [adapterError("agent_reported_error", { subtype: "error_max_turns" }), "max_turns"],
    [adapterError("rate_limited"), "rate_limit"],
    [adapterError("usage_limit"), "usage_limit"],
    [adapterError("bad_reply"), "malformed"],
    [adapterError("no_result"), "no_result"],
    [new Error("something else"), "error"],
  ])("%s -> %s", (error, kind) => {
    expect(errorFailureKind(error)).toBe(kind);
  });

  it("diagnostics keep exit code, signal, stderr tail, warnings and cost source", () => {
    const error = adapterError("exit_nonzero", { exitCode: null, signal: "SIGKILL", stderrTail: "x".repeat(5000) });
    const d = iterationDiagnostics(null, error)!;
    expect(d).toMatchObject({ exitCode: null, signal: "SIGKILL" });
    expect(d.stderrTail).toHaveLength(2000);
    const meta = { exitCode: 0, unparsedLines: 3, warnings: ["no usage"], costSource: "priced", other: 1 };
    expect(
      iterationDiagnostics(
        {
          output: "",
          claim: { done: false },
          usage: { input: 0, output: 0, cache: 0 },
          costUsd: 0,
          toolCalls: [],
          meta,
        },
        null,
      ),
    ).toEqual({
      exitCode: 0,
      unparsedLines: 3,
      warnings: ["no usage"],
      costSource: "priced",
    });
    expect(iterationDiagnostics(null, new Error("plain"))).toBeNull();
  });
});

async function run(
  config: Record<string, unknown>,
  steps: AgentStep[],
  scorers: { name: string; score: () => { score: number } }[] = [],
) {
  const clock = new FakeClock();
  const agent = new ScriptedAgent(steps, clock);
  const result = await runLoop({
    goal: "g",
    config: { completion: { allowNoEvidence: true }, question: { policy: "ignore" }, ...config },
    ports: { agent, events: new CollectingSink(), scorers },
    deps: clock,
  });
  return { result, agent, clock };
}

describe("iteration outcomes", () => {
  it("a hung agent never holds an iteration past stop.iterationTimeout, whatever the attempts", async () => {
    const { result, agent } = await run(
      {
        stop: { maxIterations: 2, iterationTimeout: 12, maxConsecutiveFailures: 0, noProgressIterations: 0 },
        retry: { attemptTimeout: 5, maxAttempts: 5, strategy: "fixed", fixedDelayMs: 1000 },
        health: { checkInterval: 0 },
      },
      [hangingStep()],
    );
    expect(result.stopType).toBe("max_iterations");
    expect(result.records).toHaveLength(2);
    for (const record of result.records) {
      expect(record).toMatchObject({ status: "error", failureKind: "timeout" });
      expect(record.error).toMatch(/timed out after 12s/);
      expect(record.durationMs).toBeLessThanOrEqual(12_000);
    }
    // 5 s + 1 s backoff + 5 s + 1 s backoff: the bound cuts the retries at 12 s, not at 5 attempts (29 s).
    expect(agent.requests.length).toBe(4);
  });

  it.each([
    ["evidence_failed", 0.2, "done."],
    ["asked_question", 0.2, "Should I also handle strings?"],
    [null, 1, "done."],
  ])("%s", async (kind, score, output) => {
    const scorers = [{ name: "s", score: () => ({ score }) }];
    const config = { stop: { maxIterations: 1, scoreThreshold: 0.9 }, completion: { evidence: ["score"] } };
    const { result } = await run(config, [{ output }], scorers);
    expect(result.records[0]!.failureKind).toBe(kind);
  });

  it("no_evidence when nothing can say whether the goal is met", async () => {
    const { result } = await run({ stop: { maxIterations: 1 } }, [{ output: "done." }]);
    expect(result.records[0]!.failureKind).toBe("no_evidence");
  });
});

import { describe, expect, it } from "vitest";
import { CollectingSink, FakeClock, ScriptedAgent, type AgentStep } from "../../test/engine-fakes";
import { AgentRunError } from "./agent-run-error";
import type { FailureKind } from "./failure-kind";
import { fixedDelay } from "./retry";
import { RATE_LIMIT_BACKOFF, retryDelayMs, retryVerdict, type RetryAction } from "./retry-policy";
import { runLoop } from "./runner";

/** An adapter error as server/agents throws it: `code` plus plain details. */
function adapterError(code: string, details: Record<string, unknown> = {}, retryable = true) {
  return Object.assign(new AgentRunError(`failed: ${code}`, { retryable, ...details }), { code });
}
const LIMIT = { usageLimit: { message: "You've hit your usage limit. Try again at 5:00 PM." } };
const RATE = { usageLimit: { message: "exceeded retry limit, last status: 429 Too Many Requests" } };

describe("retry verdict by failure kind", () => {
  it.each<[string, unknown, FailureKind, RetryAction]>([
    ["a timeout", adapterError("timeout"), "timeout", "retry"],
    ["a crashed CLI", adapterError("exit_nonzero", { exitCode: 1 }), "crash", "retry"],
    ["a CLI that could not start", adapterError("spawn_failed", {}, false), "crash", "never"],
    [
      "error_during_execution",
      adapterError("agent_reported_error", { subtype: "error_during_execution" }),
      "agent_error",
      "retry",
    ],
    ["error_max_turns", adapterError("agent_reported_error", { subtype: "error_max_turns" }), "max_turns", "never"],
    ["a stream cut before its result", adapterError("no_result"), "no_result", "retry"],
    ["a malformed reply", adapterError("bad_reply"), "malformed", "never"],
    ["a malformed reply marked retryable", adapterError("bad_reply", {}, true), "malformed", "never"],
    ["a rate limit with the provider's signal", adapterError("rate_limited", RATE), "rate_limit", "wait"],
    ["a rate limit without one", adapterError("rate_limited"), "rate_limit", "retry"],
    ["a usage limit", adapterError("usage_limit", LIMIT, false), "usage_limit", "wait"],
    ["an operator kill", adapterError("aborted", {}, false), "interrupted", "never"],
    ["a refused request", adapterError("provider_rejected", {}, false), "error", "never"],
    ["anything else", new Error("boom"), "error", "retry"],
  ])("%s", (_name, error, kind, action) => {
    expect(retryVerdict(error)).toEqual({ kind, action });
  });

  it("a rate limit backs off longer than the loop's strategy; other kinds use the strategy", () => {
    const strategy = fixedDelay(100);
    expect(retryDelayMs("crash", 1, () => 0, strategy)).toBe(100);
    expect(retryDelayMs("rate_limit", 1, () => 0, strategy)).toBe(RATE_LIMIT_BACKOFF.minMs);
    expect(retryDelayMs("rate_limit", 2, () => 0, strategy)).toBe(RATE_LIMIT_BACKOFF.minMs * 2);
    expect(retryDelayMs("rate_limit", 20, () => 0, strategy)).toBe(RATE_LIMIT_BACKOFF.maxMs);
    expect(retryDelayMs("usage_limit", 1, () => 0, strategy)).toBe(RATE_LIMIT_BACKOFF.minMs);
    // Never shorter than what the loop itself would wait.
    expect(retryDelayMs("rate_limit", 1, () => 0, fixedDelay(600_000))).toBe(600_000);
  });
});

async function oneIteration(steps: AgentStep[]) {
  const clock = new FakeClock();
  const agent = new ScriptedAgent(steps, clock);
  const sink = new CollectingSink();
  const statuses: string[] = [];
  const result = await runLoop({
    goal: "g",
    config: {
      stop: { maxIterations: 1 },
      retry: { maxAttempts: 3, strategy: "fixed", fixedDelayMs: 100 },
      completion: { allowNoEvidence: true },
      health: { checkInterval: 0 },
    },
    ports: { agent, events: sink },
    deps: clock,
    onStep: (outcome) => {
      statuses.push(outcome.snapshot.status);
    },
  });
  const delays = sink.events.flatMap((e) => (e.type === "agent_retry" ? [e.delayMs] : []));
  return { record: result.records[0]!, statuses, attempts: agent.requests.length, delays };
}

describe("the run phase applies it", () => {
  it.each<[string, AgentStep[], { attempts: number; status: string; kind: FailureKind | null; delays: number[] }]>([
    [
      "a crash is retried with the loop's backoff, then succeeds",
      [adapterError("exit_nonzero"), {}],
      { attempts: 2, status: "succeeded", kind: "no_evidence", delays: [100] },
    ],
    [
      "a malformed reply is not retried",
      [adapterError("bad_reply", {}, true), {}],
      { attempts: 1, status: "error", kind: "malformed", delays: [] },
    ],
    [
      "a spent turn budget is not retried",
      [adapterError("agent_reported_error", { subtype: "error_max_turns" }), {}],
      { attempts: 1, status: "error", kind: "max_turns", delays: [] },
    ],
    [
      "a cut stream is retried",
      [adapterError("no_result"), adapterError("no_result"), adapterError("no_result")],
      { attempts: 3, status: "error", kind: "no_result", delays: [100, 100] },
    ],
    [
      "a rate limit without a reset signal is retried after a longer backoff",
      [adapterError("rate_limited"), adapterError("rate_limited"), {}],
      { attempts: 3, status: "succeeded", kind: "no_evidence", delays: [5_000, 10_000] },
    ],
  ])("%s", async (_name, steps, expected) => {
    const { record, attempts, delays } = await oneIteration(steps);
    expect(attempts).toBe(expected.attempts);
    expect(record.status).toBe(expected.status);
    expect(record.failureKind).toBe(expected.kind);
    // The clock's jitter is part of the delay: at least the expected floor, at most twice it.
    expect(delays).toHaveLength(expected.delays.length);
    delays.forEach((d, i) => {
      expect(d).toBeGreaterThanOrEqual(expected.delays[i]!);
      expect(d).toBeLessThanOrEqual(expected.delays[i]! * 2);
    });
  });

  it.each<[string, unknown, FailureKind]>([
    ["a usage limit", adapterError("usage_limit", LIMIT, false), "usage_limit"],
    ["a rate limit with the provider's signal", adapterError("rate_limited", RATE), "rate_limit"],
  ])("%s is not retried in the iteration: the loop waits for the limit", async (_name, error, kind) => {
    const { record, statuses, delays } = await oneIteration([error as Error, {}]);
    expect(delays).toEqual([]);
    expect(record).toMatchObject({ status: "rate_limited", failureKind: kind, attempts: 1 });
    expect(statuses[0]).toBe("waiting_for_limit");
  });
});

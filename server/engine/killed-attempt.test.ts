/**
 * A killed attempt keeps what the agent already did: the run phase waits a bounded moment
 * (ABORT_GRACE_MS on the injected clock) for the adapter's answer after the abort, and the
 * iteration's record carries the tool calls, tokens and cost it reported.
 */
import { describe, expect, it } from "vitest";
import { AgentRunError } from "./agent-run-error";
import { ABORT_GRACE_MS, killReason } from "./run-phase";
import { runLoop } from "./runner";
import { FakeClock, result, ScriptedAgent, type AgentStep } from "../../test/engine-fakes";

/** Kills the loop once the agent started, then answers the abort with `answer` after `delayMs`. */
function killedThen(abort: AbortController, delayMs: number, answer: "error" | "result" | "never"): AgentStep {
  return (request, clock) =>
    new Promise((resolve, reject) => {
      request.signal.addEventListener(
        "abort",
        () => {
          if (answer === "never") return;
          void clock.sleep(delayMs).then(() => {
            if (answer === "result") resolve(result({ toolCalls: ["Read", "Bash"], costUsd: 0.02 }));
            else
              reject(
                new AgentRunError("The agent was stopped by the operator", {
                  retryable: false,
                  usage: { input: 120, output: 30, cache: 50 },
                  costUsd: 0.03,
                  toolCalls: ["Bash"],
                }),
              );
          });
        },
        { once: true },
      );
      abort.abort(killReason("dave", "stop now"));
    });
}

const cases: {
  name: string;
  delayMs: number;
  answer: "error" | "result" | "never";
  toolCalls: string[];
  tokens: { input: number; output: number; cache: number };
  costUsd: number;
}[] = [
  {
    name: "the adapter's error right away",
    delayMs: 0,
    answer: "error",
    toolCalls: ["Bash"],
    tokens: { input: 120, output: 30, cache: 50 },
    costUsd: 0.03,
  },
  {
    name: "the adapter's error within the grace",
    delayMs: ABORT_GRACE_MS - 1000,
    answer: "error",
    toolCalls: ["Bash"],
    tokens: { input: 120, output: 30, cache: 50 },
    costUsd: 0.03,
  },
  {
    name: "a result that arrives after the kill",
    delayMs: 100,
    answer: "result",
    toolCalls: ["Read", "Bash"],
    tokens: { input: 100, output: 50, cache: 0 },
    costUsd: 0.02,
  },
  {
    name: "an answer later than the grace (not waited for)",
    delayMs: ABORT_GRACE_MS + 1000,
    answer: "error",
    toolCalls: [],
    tokens: { input: 0, output: 0, cache: 0 },
    costUsd: 0,
  },
  {
    name: "no answer at all (the halt is not held up)",
    delayMs: 0,
    answer: "never",
    toolCalls: [],
    tokens: { input: 0, output: 0, cache: 0 },
    costUsd: 0,
  },
];

describe("a killed attempt keeps what the agent did", () => {
  it.each(cases)("$name", async ({ delayMs, answer, toolCalls, tokens, costUsd }) => {
    const clock = new FakeClock();
    const abort = new AbortController();
    const agent = new ScriptedAgent([killedThen(abort, delayMs, answer)], clock);
    const started = clock.now();
    const run = await runLoop({ goal: "g", ports: { agent }, deps: clock, signal: abort.signal });
    expect(run.stopType).toBe("user_interrupted");
    const [record] = run.records;
    expect(record).toMatchObject({ status: "interrupted", toolCalls, tokens });
    expect(record!.costUsd).toBeCloseTo(costUsd, 9);
    expect(run.report).toMatchObject({ totals: { toolCalls: toolCalls.length } });
    // Bounded: the kill is answered within the grace whatever the adapter does.
    expect(clock.now() - started).toBeLessThanOrEqual(ABORT_GRACE_MS);
  });
});

import { describe, expect, it } from "vitest";
import { CollectingSink, FakeClock, ScriptedAgent, result } from "../../test/engine-fakes";
import { beforeIteration } from "./preflight";
import { AgentRunError } from "./run-phase";
import { runLoop } from "./runner";
import { createLoop, type LoopSnapshot } from "./snapshot";
import { joinSharedLimit, usageLimitOf } from "./usage-limit";
import { isUsageLimitText, parseDurationMs, parseResetsAt, usageLimitResetAt } from "./usage-limit-time";

const H = 3_600_000;

describe("reset times from what the agent said", () => {
  const noon = Date.UTC(2026, 10, 23, 12, 0); // 14:00 in Vilnius (EET, UTC+2)

  it("reads Claude Code's 'resets 5pm (Europe/Vilnius)' in that zone, today or tomorrow", () => {
    const text = "You've hit your limit · resets 5pm (Europe/Vilnius)";
    expect(parseResetsAt(text, noon)).toBe(Date.UTC(2026, 10, 23, 15, 0));
    const evening = Date.UTC(2026, 10, 23, 16, 0); // 18:00 local: 5pm is tomorrow's
    expect(parseResetsAt(text, evening)).toBe(Date.UTC(2026, 10, 24, 15, 0));
    // Summer time (EEST, UTC+3).
    expect(parseResetsAt(text, Date.UTC(2026, 6, 1, 10, 0))).toBe(Date.UTC(2026, 6, 1, 14, 0));
  });

  it("reads minutes, 24-hour times, dates and the default zone", () => {
    expect(parseResetsAt("resets 5:30am", noon)).toBe(Date.UTC(2026, 10, 24, 5, 30));
    expect(parseResetsAt("resets at 17:00 (UTC)", noon)).toBe(Date.UTC(2026, 10, 23, 17, 0));
    expect(parseResetsAt("resets 9pm", noon, "America/New_York")).toBe(Date.UTC(2026, 10, 24, 2, 0));
    expect(parseResetsAt("weekly limit reached · resets Nov 25, 5pm (Europe/Vilnius)", noon)).toBe(
      Date.UTC(2026, 10, 25, 15, 0),
    );
    expect(parseResetsAt("resets 5pm (Not/AZone)", noon)).toBeNull();
    expect(parseResetsAt("resets 5", noon)).toBeNull();
  });

  it("reads epoch seconds, relative durations and HTTP headers", () => {
    const at = Date.UTC(2026, 10, 23, 13, 0);
    expect(usageLimitResetAt({ message: `Claude AI usage limit reached|${at / 1000}` }, noon)).toBe(at);
    expect(usageLimitResetAt({ message: "You've hit your usage limit. Try again in 2 hours 5 minutes." }, noon)).toBe(
      noon + 2 * H + 5 * 60_000,
    );
    expect(usageLimitResetAt({ message: "429", retryAfter: "120" }, noon)).toBe(noon + 120_000);
    expect(usageLimitResetAt({ message: "429", retryAfter: new Date(at).toUTCString() }, noon)).toBe(at);
    const headers = {
      "anthropic-ratelimit-requests-reset": new Date(at).toISOString(),
      "anthropic-ratelimit-tokens-reset": new Date(noon + 60_000).toISOString(),
    };
    expect(usageLimitResetAt({ message: "overloaded", resetHeaders: headers }, noon)).toBe(at);
    expect(usageLimitResetAt({ message: "x", resetHeaders: { "x-ratelimit-reset-requests": "6m0s" } }, noon)).toBe(
      noon + 6 * 60_000,
    );
    // Unknown, or already past: the caller backs off.
    expect(usageLimitResetAt({ message: "You've hit your limit" }, noon)).toBeNull();
    expect(usageLimitResetAt({ message: `usage limit reached|${(noon - H) / 1000}` }, noon)).toBeNull();
    expect(parseDurationMs("1h2m3.5s")).toBe(H + 2 * 60_000 + 3500);
  });

  it("recognises limit wording, and only that", () => {
    for (const text of [
      "You've hit your limit · resets 5pm (Europe/Vilnius)",
      "Claude AI usage limit reached|1767225600",
      "You've hit your usage limit. Upgrade to Pro or try again in 4 days.",
      "Rate limit reached for gpt-4o",
      "overloaded_error: Overloaded",
    ]) {
      expect(isUsageLimitText(text), text).toBe(true);
    }
    for (const text of ["All done.", "Fixed the limit check in limits.ts", "error_max_turns"]) {
      expect(isUsageLimitText(text), text).toBe(false);
    }
  });
});

const limited = (message: string) => new AgentRunError(message, { usageLimit: { message } });

describe("a loop at the usage limit", () => {
  const base = { retry: { maxAttempts: 3, strategy: "none" }, stop: { maxIterations: 6 } };

  it("waits for the reset, resumes and finishes with no failure counted and the breaker closed", async () => {
    const clock = new FakeClock(Date.UTC(2026, 10, 23, 12, 0));
    const reset = clock.now() + 2 * H;
    const agent = new ScriptedAgent(
      [
        {},
        limited(`Claude AI usage limit reached|${reset / 1000}`),
        limited(`Claude AI usage limit reached|${reset / 1000}`),
        { output: "done", claim: { done: true } },
      ],
      clock,
    );
    const sink = new CollectingSink();
    const config = {
      ...base,
      stop: { maxIterations: 6, scoreThreshold: 0.9 },
      health: { breaker: { failureThreshold: 1 } },
      limits: { backoffSeconds: 60 },
    };
    const outcome = await runLoop({
      goal: "g",
      config,
      ports: {
        agent,
        events: sink,
        scorers: [{ name: "s", score: ({ output }) => ({ score: output === "done" ? 1 : 0 }) }],
      },
      deps: clock,
    });
    const statuses = outcome.records.map((i) => i.status);
    expect(statuses).toEqual(["succeeded", "rate_limited", "rate_limited", "succeeded"]);
    // A limit is never retried within the iteration: one call per limited iteration.
    expect(agent.requests).toHaveLength(4);
    expect(outcome.snapshot.state.consecutiveFailures).toBe(0);
    expect(outcome.snapshot.breaker.status).toBe("closed");
    const started = sink.events.filter((e) => e.type === "limit_wait_started");
    expect(started.map((e) => (e as { newPeriod: boolean }).newPeriod)).toEqual([true, false]);
    expect(usageLimitOf(outcome.snapshot).periods).toBe(1);
    expect(sink.events.filter((e) => e.type === "limit_wait_ended")).toHaveLength(2);
    // The first wait ends at the reset (plus the margin); the recurrence backs off past it.
    const until = started.map((e) => (e as { until: number }).until);
    expect(until[0]).toBe(reset + 30_000);
    expect(agent.requests[2]!.iteration).toBe(3);
    expect(outcome.snapshot.progress.iterationsWithoutProgress).toBe(0);
  });

  it("iterations the limit answered do not use up stop.maxIterations", async () => {
    const clock = new FakeClock();
    const agent = new ScriptedAgent([{}, limited("You've hit your limit"), {}], clock);
    const outcome = await runLoop({
      goal: "g",
      config: { ...base, stop: { maxIterations: 2, noProgressIterations: 0 }, limits: { backoffSeconds: 60 } },
      ports: { agent },
      deps: clock,
    });
    expect(outcome.records.map((r) => r.status)).toEqual(["succeeded", "rate_limited", "succeeded"]);
    expect(outcome.stopType).toBe("max_iterations");
  });

  it("stops with a clear reason under limits.onUsageLimit = stop", async () => {
    const clock = new FakeClock();
    const agent = new ScriptedAgent([limited("You've hit your limit · resets 5pm (UTC)")], clock);
    const outcome = await runLoop({
      goal: "g",
      config: { ...base, limits: { onUsageLimit: "stop" } },
      ports: { agent },
      deps: clock,
    });
    expect(outcome.snapshot.halt?.stopType).toBe("usage_limit");
    expect(outcome.snapshot.halt?.reason).toMatch(/usage limit \(limits.onUsageLimit = stop\); it resets at .*17:00/);
    expect(outcome.snapshot.status).toBe("stopped");
  });

  it("switches to the fallback agent until the reset, and back after it", async () => {
    const clock = new FakeClock();
    const reset = clock.now() + H;
    const primary = new ScriptedAgent([{}, limited(`usage limit reached|${reset / 1000}`), {}], clock);
    const fallback = new ScriptedAgent(
      [
        (request, c) => {
          c.advance(40 * 60_000);
          return result({ output: `fallback ${request.iteration}` });
        },
      ],
      clock,
    );
    const outcome = await runLoop({
      goal: "g",
      config: { ...base, stop: { maxIterations: 5, noProgressIterations: 0 }, limits: { onUsageLimit: "fallback" } },
      ports: { agent: primary, fallbackAgent: fallback },
      deps: clock,
    });
    expect(outcome.records.map((i) => `${i.status}:${i.agent}`)).toEqual([
      "succeeded:primary",
      "rate_limited:primary",
      "succeeded:fallback",
      "succeeded:fallback",
      "succeeded:primary",
      // The limited iteration did not use up one of the five.
      "succeeded:primary",
    ]);
  });

  it("backs off a limit that keeps coming back, then needs attention instead of waiting forever", async () => {
    const clock = new FakeClock();
    const agent = new ScriptedAgent([limited("You've hit your limit")], clock);
    const sink = new CollectingSink();
    const config = {
      ...base,
      stop: { maxIterations: 50 },
      limits: { backoffSeconds: 60, maxBackoffSeconds: 300, maxWaits: 4 },
    };
    const controls = { read: async () => [], settle: () => undefined };
    const stop = new AbortController();
    let attention: LoopSnapshot | null = null;
    await runLoop({
      goal: "g",
      config,
      ports: { agent, events: sink },
      deps: clock,
      controls,
      signal: stop.signal,
      // Paused for an operator, the loop would poll forever: end the test there.
      onStep: (o) => {
        if (o.snapshot.status !== "needs_attention") return;
        attention = o.snapshot;
        stop.abort("test over");
      },
    });
    // The operator resumes it: the count starts afresh.
    const resume = { id: "r", requestedAt: clock.now(), by: "ann", command: { kind: "resume" as const } };
    const resumed = beforeIteration(attention!, [resume], clock);
    expect(resumed.decision.kind).toBe("run");
    expect(usageLimitOf(resumed.snapshot).recurrences).toBe(0);
    const waits = sink.events
      .filter((e) => e.type === "limit_wait_started")
      .map((e) => (e as { until: number; at: number }).until - e.at);
    expect(waits).toEqual([60_000, 120_000, 240_000, 300_000]);
    expect(sink.events.some((e) => e.type === "limit_needs_attention")).toBe(true);
    expect(agent.requests).toHaveLength(5);
    const statuses = sink.events.filter((e) => e.type === "status_changed").map((e) => (e as { to: string }).to);
    expect(statuses).toContain("needs_attention");
  });

  it("joins a window another loop on the account recorded, and 'resume now' overrides it", () => {
    const clock = new FakeClock();
    const now = clock.now();
    const snapshot = createLoop("g", {}, clock);
    const window = { until: now + H, learnedAt: now - 1000, message: "You've hit your limit" };
    const joined = joinSharedLimit(snapshot, window, now, false);
    expect(joined.events.map((e) => e.type)).toEqual(["limit_wait_started", "status_changed"]);
    const pre = beforeIteration(joined.snapshot, [], clock);
    expect(pre.decision).toMatchObject({ kind: "wait", reason: "usage_limit", untilMs: now + H });
    const resume = { id: "r1", requestedAt: now, by: "ann", command: { kind: "resume" as const } };
    const resumed = beforeIteration(joined.snapshot, [resume], clock);
    expect(resumed.acks[0]!.outcome).toBe("applied");
    expect(resumed.decision.kind).toBe("run");
    // The same window no longer holds this loop; a limit learned later does.
    expect(joinSharedLimit(resumed.snapshot, window, now + 1, false).events).toEqual([]);
    const later = { ...window, learnedAt: now + 5 };
    expect(joinSharedLimit(resumed.snapshot, later, now + 10, false).events).not.toEqual([]);
  });
});

// What the CLIs' streams say as data about usage limits, activity and spend,
// with the objects Claude Code 2.1.x and Codex 0.17x print (shapes from their
// own SDK/protocol schemas): Claude's rate_limit_event and 429 result, its
// stream_event and api_retry lines, its per-model modelUsage; Codex's
// rate_limits windows.
import { describe, expect, it } from "vitest";
import { usageLimitResetAt, type AgentProgressEvent } from "../engine";
import { claudeCodeParser } from "./claude-code.preset";
import { codexParser } from "./codex.preset";
import type { StreamParser } from "./stream-parser";

function parse(parser: StreamParser, events: (object | string)[]) {
  const emitted: AgentProgressEvent[] = [];
  for (const e of events) parser.line(typeof e === "string" ? e : JSON.stringify(e), (p) => emitted.push(p));
  return { run: parser.finish(""), emitted };
}

const NOW = Date.parse("2026-11-28T02:00:00Z");
const RESET_S = Date.parse("2026-11-28T02:12:54Z") / 1000;
const SESSION = "You've hit your session limit · resets 2:12:54am (UTC)";

const rateLimitEvent = (info: object) => ({
  type: "rate_limit_event",
  rate_limit_info: info,
  uuid: "6f1c",
  session_id: "s1",
});
const limitedResult = {
  type: "result",
  subtype: "success",
  is_error: true,
  api_error_status: 429,
  duration_ms: 612,
  num_turns: 1,
  result: SESSION,
  session_id: "s1",
  total_cost_usd: 0,
  usage: { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
};

describe("Claude Code usage limits as data", () => {
  it("a rejected rate_limit_event and the 429 result: the limit, its reset to the second, window and use", () => {
    const { run } = parse(claudeCodeParser(10_000), [
      { type: "system", subtype: "init", session_id: "s1", model: "claude-sonnet-4-5" },
      rateLimitEvent({ status: "rejected", resetsAt: RESET_S, rateLimitType: "five_hour", utilization: 1.02 }),
      limitedResult,
    ]);
    expect(run.usageLimit).toBe(SESSION);
    expect(run.limitInfo).toEqual({ resetAt: RESET_S * 1000, window: "five_hour", usedPercent: 102 });
    const signal = { message: run.usageLimit!, ...run.limitInfo };
    expect(new Date(usageLimitResetAt(signal, NOW)!).toISOString()).toBe("2026-11-28T02:12:54.000Z");
  });

  it("the real 2.1.332 shape: utilization only under unifiedWindows, words without the seconds the data has", () => {
    // Printed by the real CLI against the local model server (429 with the unified rate-limit headers).
    const { run } = parse(claudeCodeParser(10_000), [
      {
        type: "rate_limit_event",
        rate_limit_info: {
          status: "rejected",
          resetsAt: 1795847108,
          rateLimitType: "five_hour",
          overageStatus: "rejected",
          overageDisabledReason: "org_level_disabled",
          isUsingOverage: false,
          unifiedWindows: { five_hour: { utilization: 1, resetsAt: 1795847108, status: "rejected" } },
        },
      },
      { ...limitedResult, result: "You've hit your 5-hour limit · resets 6:25am (UTC)" },
    ]);
    expect(run.limitInfo).toEqual({ resetAt: 1795847108000, window: "five_hour", usedPercent: 100 });
    const signal = { message: run.usageLimit!, ...run.limitInfo };
    // 06:25:08, not the 06:25 the words say: the loop does not call 8 s too early.
    expect(new Date(usageLimitResetAt(signal, Date.parse("2026-11-28T05:25:00Z"))!).toISOString()).toBe(
      "2026-11-28T06:25:08.000Z",
    );
  });

  it("a 429 result whose words name no limit is still one", () => {
    const { run } = parse(claudeCodeParser(10_000), [
      { ...limitedResult, result: "API Error: Request rejected (429) · this may be a temporary capacity issue" },
    ]);
    expect(run.usageLimit).toMatch(/429/);
  });

  it("a malformed rate_limit_event is ignored and counted, never a crash; the wording still gives the reset", () => {
    const { run } = parse(claudeCodeParser(10_000), [
      rateLimitEvent({ status: 7, resetsAt: "soon" }),
      { type: "rate_limit_event" },
      limitedResult,
    ]);
    expect(run.usageLimit).toBe(SESSION);
    expect(run.limitInfo).toBeNull();
    expect(run.meta.badRateLimitEvents).toBe(2);
    expect(new Date(usageLimitResetAt({ message: run.usageLimit! }, NOW)!).toISOString()).toBe(
      "2026-11-28T02:12:54.000Z",
    );
  });

  it("an allowed_warning while the run succeeds is no limit, but its use is kept", () => {
    const { run } = parse(claudeCodeParser(10_000), [
      rateLimitEvent({ status: "allowed_warning", resetsAt: RESET_S, rateLimitType: "seven_day", utilization: 0.8 }),
      { type: "result", subtype: "success", is_error: false, result: "Done.", total_cost_usd: 0.01 },
    ]);
    expect(run.usageLimit).toBeNull();
    expect(run.meta.rateLimit).toMatchObject({ status: "allowed_warning", window: "seven_day", usedPercent: 80 });
  });
});

describe("Claude Code activity while a turn streams", () => {
  it("stream_event lines and internal API retries are progress, the retry said in words", () => {
    const { emitted, run } = parse(claudeCodeParser(10_000), [
      { type: "stream_event", event: { type: "message_start", message: { id: "m1" } }, session_id: "s1" },
      {
        type: "stream_event",
        event: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Look" } },
      },
      {
        type: "system",
        subtype: "api_retry",
        attempt: 2,
        max_retries: 10,
        retry_delay_ms: 1180,
        error_status: 529,
        error: "overloaded",
      },
    ]);
    expect(emitted.slice(0, 2)).toEqual([{ kind: "progress" }, { kind: "progress" }]);
    expect(emitted[2]).toEqual({
      kind: "progress",
      message: "claude retries the API call (attempt 2/10, HTTP 529, next in 1 s)",
    });
    expect(run.meta.apiRetries).toBe(1);
  });
});

describe("Claude Code tokens per model", () => {
  it("a side call to another model counts in the tokens, not only in the cost", () => {
    const { run } = parse(claudeCodeParser(10_000), [
      {
        type: "result",
        subtype: "success",
        is_error: false,
        result: "Done.",
        total_cost_usd: 0.0251,
        // `usage` covers the main loop only: here it made no call of its own.
        usage: { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
        modelUsage: {
          "claude-haiku-4-5": {
            inputTokens: 812,
            outputTokens: 40,
            cacheReadInputTokens: 0,
            cacheCreationInputTokens: 0,
            costUSD: 0.001,
          },
          "claude-sonnet-4-5": {
            inputTokens: 3,
            outputTokens: 120,
            cacheReadInputTokens: 1000,
            cacheCreationInputTokens: 5000,
            costUSD: 0.0241,
          },
        },
      },
    ]);
    expect(run.usage).toEqual({ input: 812 + 3 + 5000, output: 160, cache: 1000 });
    expect(run.cacheWriteTokens).toBe(5000);
    expect(Object.keys(run.meta.models as object)).toEqual(["claude-haiku-4-5", "claude-sonnet-4-5"]);
  });
});

describe("Codex rate_limits windows", () => {
  const limit =
    "You've hit your usage limit. Upgrade to Plus to continue using Codex (https://chatgpt.com/explore/plus), or try again at 2:28 AM.";
  const windows = (primary: number, secondary: number) => ({
    primary: { used_percent: primary, window_minutes: 300, resets_at: Date.parse("2026-11-28T02:28:00Z") / 1000 },
    secondary: { used_percent: secondary, window_minutes: 10080, resets_at: Date.parse("2026-12-02T09:00:00Z") / 1000 },
  });

  it("the fullest window gives the reset and the use", () => {
    const { run } = parse(
      codexParser(10_000, () => NOW),
      [
        { type: "thread.started", thread_id: "t" },
        { type: "token_count", rate_limits: windows(100, 41) },
        { type: "error", message: limit },
        { type: "turn.failed", error: { message: limit } },
      ],
    );
    expect(run.usageLimit).toBe(limit);
    expect(run.limitInfo).toEqual({
      resetAt: Date.parse("2026-11-28T02:28:00Z"),
      window: "primary",
      usedPercent: 100,
    });
  });

  it("without rate_limits, the words give the reset ('try again at 2:28 AM')", () => {
    const { run } = parse(
      codexParser(10_000, () => NOW),
      [{ type: "error", message: limit }],
    );
    expect(run.limitInfo).toBeNull();
    expect(new Date(usageLimitResetAt({ message: run.usageLimit! }, NOW)!).toISOString()).toBe(
      "2026-11-28T02:28:00.000Z",
    );
  });
});

describe("Claude Code spend while a turn streams", () => {
  it("a turn killed mid-stream keeps the tokens its stream_events reported", () => {
    const parser = claudeCodeParser(10_000);
    const lines = [
      {
        type: "stream_event",
        event: {
          type: "message_start",
          message: { id: "msg_1", usage: { input_tokens: 1200, output_tokens: 1, cache_read_input_tokens: 300 } },
        },
      },
      { type: "stream_event", event: { type: "content_block_delta", delta: { type: "text_delta", text: "Fix" } } },
      { type: "stream_event", event: { type: "message_delta", usage: { output_tokens: 57 } } },
    ];
    for (const l of lines) parser.line(JSON.stringify(l), () => undefined);
    // No assistant message and no result yet: the kill comes now.
    expect(parser.spend()?.usage).toEqual({ input: 1200, output: 57, cache: 300 });
  });
});

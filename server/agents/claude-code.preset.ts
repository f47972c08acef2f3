/**
 * Claude Code, headless: `claude -p --output-format stream-json --verbose`
 * (prompt on stdin). One JSON object per line: a `system` init message, then
 * `assistant` / `user` messages whose content blocks include `tool_use`, and
 * finally one `result` object with `subtype` ("success", "error_max_turns",
 * "error_during_execution"), `is_error`, `result`, `total_cost_usd`,
 * `num_turns`, `session_id` and `usage` {input_tokens, output_tokens,
 * cache_read_input_tokens, cache_creation_input_tokens}.
 *
 * Sources: https://code.claude.com/docs/en/headless (output formats; stream-json
 * requires --verbose) and https://code.claude.com/docs/en/agent-sdk/cost-tracking
 * (total_cost_usd and usage on the result message; per-step usage on assistant
 * messages shares one message id, so it is de-duplicated by id).
 */
import { isUsageLimitText, type TokenUsage } from "../engine";
import { claudeRateLimitOf, modelUsageSum, type ClaudeRateLimit } from "./claude-stream-events";
import {
  CappedText,
  num,
  obj,
  str,
  type CommandPresetSpec,
  JsonEventStream,
  type JsonObject,
  type StreamParser,
} from "./stream-parser";

function usageOf(u: JsonObject | undefined): { usage: TokenUsage; cacheWrite: number } | null {
  if (!u) return null;
  const cacheWrite = num(u.cache_creation_input_tokens);
  return {
    // Anthropic's input_tokens excludes both cache reads and cache writes.
    usage: {
      input: num(u.input_tokens) + cacheWrite,
      output: num(u.output_tokens),
      cache: num(u.cache_read_input_tokens),
    },
    cacheWrite,
  };
}

/** The question texts of an AskUserQuestion tool call ({questions: [{question}]}, or {question}). */
function askedQuestions(input: JsonObject | undefined): string[] {
  const list = Array.isArray(input?.questions) ? input.questions : [input];
  return list.flatMap((q) => {
    const text = str(obj(q)?.question);
    return text ? [text] : [];
  });
}

export function claudeCodeParser(maxChars: number): StreamParser {
  const text = new CappedText(maxChars);
  const stream = new JsonEventStream();
  const toolCalls = stream.toolCalls;
  const stepUsage = new Map<string, JsonObject>();
  let result: JsonObject | undefined;
  let init: JsonObject | undefined;
  // The text of the last assistant message only: earlier ones (and tool results) may quote anything.
  let finalMessage = "";
  const asked: string[] = [];
  // The newest rate_limit_event, and how many were malformed (ignored, never a crash).
  let rateLimit: ClaudeRateLimit | null = null;
  let badRateLimitEvents = 0;
  let apiRetries = 0;
  // The message id a stream_event's usage belongs to.
  let streaming: string | undefined;

  /** Per-step usage (one entry per message id), summed: all there is before the result event. */
  const stepSum = () => {
    if (stepUsage.size === 0) return null;
    const sum = { input: 0, output: 0, cache: 0 };
    let cacheWrite = 0;
    for (const u of stepUsage.values()) {
      const p = usageOf(u)!;
      sum.input += p.usage.input;
      sum.output += p.usage.output;
      sum.cache += p.usage.cache;
      cacheWrite += p.cacheWrite;
    }
    return { usage: sum, cacheWrite };
  };

  return {
    line(line, emit) {
      const event = stream.read(line, emit);
      if (!event) return;
      switch (event.type) {
        case "system":
          if (event.subtype === "init") init = event;
          if (event.subtype === "api_retry") {
            // Claude's own retries (a 429 or 5xx, up to ~10 over minutes): activity, and said so.
            apiRetries++;
            const why = typeof event.error_status === "number" ? `HTTP ${event.error_status}` : str(event.error);
            const delay = Math.round(num(event.retry_delay_ms) / 1000);
            const message = `claude retries the API call (attempt ${num(event.attempt)}/${num(event.max_retries)}${why ? `, ${why}` : ""}, next in ${delay} s)`;
            emit({ kind: "progress", message });
            return;
          }
          emit({ kind: "progress", message: `claude ${String(event.subtype ?? "system")}` });
          return;
        case "stream_event": {
          // --include-partial-messages: tokens and tool input as they stream. Output, not silence.
          // Their usage (message_start, then message_delta's running output count) is spend so far:
          // a turn killed mid-stream keeps it, and the finished message's usage replaces it by id.
          const e = obj(event.event);
          const started = obj(e?.message);
          if (e?.type === "message_start" && str(started?.id) && obj(started?.usage)) {
            streaming = str(started!.id)!;
            stepUsage.set(streaming, { ...obj(started!.usage)! });
          } else if (e?.type === "message_delta" && streaming && obj(e.usage)) {
            stepUsage.set(streaming, { ...stepUsage.get(streaming), ...obj(e.usage)! });
          }
          emit({ kind: "progress" });
          return;
        }
        case "rate_limit_event": {
          const info = claudeRateLimitOf(event);
          if (info) rateLimit = info;
          else badRateLimitEvents++;
          emit({ kind: "progress", message: `claude rate limit: ${info ? info.status : "unreadable event"}` });
          return;
        }
        case "assistant": {
          const message = obj(event.message);
          const id = str(message?.id);
          const usage = obj(message?.usage);
          if (id && usage) stepUsage.set(id, usage);
          let emitted = false;
          const texts: string[] = [];
          for (const block of Array.isArray(message?.content) ? message.content : []) {
            const b = obj(block);
            if (b?.type === "text" && typeof b.text === "string") {
              text.push(b.text);
              texts.push(b.text);
            }
            if (b?.type === "tool_use") {
              const name = str(b.name) ?? "unknown_tool";
              toolCalls.push(name);
              if (name === "AskUserQuestion") asked.push(...askedQuestions(obj(b.input)));
              emit({ kind: "tool_call", name });
              emitted = true;
            }
          }
          finalMessage = texts.join("\n");
          if (!emitted) emit({ kind: "heartbeat" });
          return;
        }
        case "result":
          result = event;
          emit({ kind: "progress", message: `claude result: ${String(event.subtype ?? "")}` });
          return;
        default:
          emit({ kind: "heartbeat" });
      }
    },

    toolCallsSoFar: () => [...toolCalls],

    spend() {
      const parsed = modelUsageSum(result) ?? usageOf(obj(result?.usage)) ?? stepSum();
      if (!parsed) return null;
      const costUsd = typeof result?.total_cost_usd === "number" ? result.total_cost_usd : null;
      const model = str(init?.model);
      return { usage: parsed.usage, costUsd, cacheWriteTokens: parsed.cacheWrite, ...(model ? { model } : {}) };
    },

    finish() {
      const warnings: string[] = [];
      // Per model when the result has it: side calls to another model are tokens too.
      let parsed = modelUsageSum(result) ?? usageOf(obj(result?.usage));
      if (!result) warnings.push("Claude Code printed no result event; output and usage come from the stream so far");
      parsed ??= stepSum();
      const subtype = str(result?.subtype);
      const failed =
        result !== undefined && (result.is_error === true || (subtype !== undefined && subtype !== "success"));
      const resultText = str(result?.result);
      // Only a run that did not finish normally can be limited: its result text, or the final
      // message when no result came. A successful run that merely read such words is not.
      const ended = result === undefined || failed;
      const wordedLimit = [resultText, result === undefined ? finalMessage : undefined].find(
        (t) => t !== undefined && isUsageLimitText(t),
      );
      // The API's 429 and a rejected rate_limit_event say so as data, whatever the wording.
      const rejected = rateLimit?.status === "rejected" ? rateLimit : null;
      const limitText =
        wordedLimit ??
        (result?.api_error_status === 429 || rejected
          ? resultText?.trim() ||
            `Claude Code hit a rate limit${rejected?.window ? ` (${rejected.window})` : ""}${result?.api_error_status === 429 ? " (HTTP 429)" : ""}`
          : undefined);
      const limitInfo = rateLimit
        ? { resetAt: rateLimit.resetAt, window: rateLimit.window, usedPercent: rateLimit.usedPercent }
        : null;
      const incomplete =
        result !== undefined
          ? null
          : stream.incomplete(
              "Claude Code",
              "stream-json",
              "is the agent run with --output-format stream-json --verbose?",
              "Claude Code's stream ended without a result event",
            );
      return {
        incomplete,
        usageLimit: ended && limitText !== undefined ? limitText.slice(0, 500) : null,
        limitInfo: ended && limitText !== undefined ? limitInfo : null,
        output: resultText ?? text.join("\n"),
        usage: parsed?.usage ?? null,
        cacheWriteTokens: parsed?.cacheWrite ?? 0,
        costUsd: typeof result?.total_cost_usd === "number" ? result.total_cost_usd : null,
        toolCalls,
        ...(asked.length > 0 ? { question: asked.join("\n") } : {}),
        error: failed
          ? `Claude Code ended with ${subtype ?? "an error"}${resultText ? `: ${resultText.slice(0, 300)}` : ""}`
          : null,
        meta: {
          subtype: subtype ?? null,
          numTurns: typeof result?.num_turns === "number" ? result.num_turns : null,
          sessionId: str(result?.session_id) ?? str(init?.session_id) ?? null,
          model: str(init?.model) ?? null,
          cacheCreationTokens: parsed?.cacheWrite ?? 0,
          durationApiMs: typeof result?.duration_api_ms === "number" ? result.duration_api_ms : null,
          unparsedLines: stream.unparsedLines,
          unparsedSample: stream.unparsedSample,
          ...(result?.modelUsage !== undefined ? { models: obj(result.modelUsage) ?? null } : {}),
          ...(rateLimit ? { rateLimit } : {}),
          ...(badRateLimitEvents > 0 ? { badRateLimitEvents } : {}),
          ...(apiRetries > 0 ? { apiRetries } : {}),
        },
        warnings,
      };
    },
  };
}

export const claudeCodePreset: CommandPresetSpec = {
  // --include-partial-messages: text and tool input stream as `stream_event` lines while a turn is
  // written (without it a message prints only when it ends, and a long turn looks silent).
  argv: ["claude", "-p", "--output-format", "stream-json", "--verbose", "--include-partial-messages"],
  parser: claudeCodeParser,
  args: (ctx) => ({
    // The loop's model is the one that runs (Claude reports its own cost either way).
    args:
      ctx.model && !ctx.extraArgs.some((a) => a === "--model" || a.startsWith("--model="))
        ? ["--model", ctx.model]
        : [],
    extraArgs: [...ctx.extraArgs],
    warnings: [],
  }),
  // `2.1.332 (Claude Code)`. stream-json results with api_error_status and rate_limit_event: 2.x.
  versions: { parse: /^(\d+\.\d+\.\d+)\s+\(Claude Code\)/m, min: "2.0.0", verified: "2.1.332" },
};

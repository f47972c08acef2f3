// Claude Code's stream-json (`--verbose`, with `--include-partial-messages`):
// stream_event deltas while a message is written, then one `assistant` line
// per finished content block, `user` lines with tool results, `system` lines
// (init, api_retry), `rate_limit_event`, and the final `result`.
import { appendCapped, type TranscriptBuilder } from "./builder";
import { claudeToolSummary } from "./tool-summary";
import { cap, num, obj, plural, pretty, str, type Json } from "./text";
import { CAPS } from "./types";

export const CLAUDE_TYPES = new Set(["system", "assistant", "user", "stream_event", "result", "rate_limit_event"]);

export class ClaudeState {
  /** The message being streamed (its id), for the deltas that follow. */
  message: string | null = null;
  /** Content blocks seen per message id (assistant lines carry one block each, in order). */
  readonly blocks = new Map<string, number>();
  readonly partialJson = new Map<string, string>();
  /** A message whose start was not seen streams under a made-up key; its whole form (real id) maps to it. */
  readonly alias = new Map<string, string>();
  /** The made-up key of such a message, until its whole form names it. */
  unnamed: string | null = null;
  /** Blocks started (or streaming) and not yet stopped. */
  readonly open = new Set<string>();
}

export function claudeLine(b: TranscriptBuilder, s: ClaudeState, o: Json): void {
  switch (o.type) {
    case "system":
      return system(b, o);
    case "stream_event":
      return stream(b, s, obj(o.event) ?? {});
    case "assistant":
      return assistant(b, s, obj(o.message) ?? {});
    case "user":
      return user(b, obj(o.message) ?? {});
    case "result":
      return result(b, o);
    case "rate_limit_event":
      return rateLimit(b, obj(o.rate_limit_info) ?? o);
  }
}

const QUIET_SYSTEM = /^(status|hook_)/;

function system(b: TranscriptBuilder, o: Json) {
  const subtype = str(o.subtype) ?? "";
  if (subtype === "init") {
    b.cwd = str(o.cwd) ?? b.cwd;
    const parts = ["Claude Code", str(o.claude_code_version), str(o.model), str(o.cwd)].filter(Boolean);
    b.push({ key: b.nextKey("init"), kind: "session", text: parts.join(" · ") });
  } else if (subtype === "api_retry") {
    const status = num(o.error_status);
    const why = [status, str(o.error)].filter((x) => x !== undefined && x !== "").join(" ");
    const delay = num(o.retry_delay_ms);
    const text = `API error${why ? ` (${why})` : ""}: retry ${num(o.attempt) ?? "?"} of ${num(o.max_retries) ?? "?"}${
      delay !== undefined ? ` in ${(delay / 1000).toFixed(1)} s` : ""
    }`;
    b.push({ key: b.nextKey("retry"), kind: "retry", text });
  } else if (subtype === "compact_boundary") {
    b.push({ key: b.nextKey("notice"), kind: "notice", text: "Conversation compacted" });
  } else if (subtype && !QUIET_SYSTEM.test(subtype)) {
    b.push({ key: b.nextKey("notice"), kind: "notice", text: `System: ${subtype}` });
  }
}

function stream(b: TranscriptBuilder, s: ClaudeState, e: Json) {
  if (e.type === "message_start") {
    s.message = str(obj(e.message)?.id) ?? b.nextKey("message");
    s.unnamed = null;
    return;
  }
  if (e.type !== "content_block_start" && e.type !== "content_block_delta" && e.type !== "content_block_stop") return;
  // A tail that starts mid-message has no message_start: its deltas still show.
  if (s.message === null && e.type === "content_block_stop") return;
  const index = num(e.index) ?? 0;
  // A block that starts, or text that streams, where a finished block already stands: the next
  // message's start was lost (a gap in a live tail). It gets a key of its own instead of being
  // glued to the finished one.
  const current = s.message === null ? null : `${s.message}:${index}`;
  const stale =
    current !== null &&
    e.type !== "content_block_stop" &&
    b.has(current) &&
    (e.type === "content_block_start" || !s.open.has(current));
  if (s.message === null || stale) {
    s.message = b.nextKey("message");
    s.unnamed = s.message;
  }
  const key = `${s.message}:${index}`;
  if (e.type === "content_block_stop") s.open.delete(key);
  else s.open.add(key);
  if (e.type === "content_block_start") {
    const block = obj(e.content_block) ?? {};
    if (block.type === "text") b.upsert(key, "text", () => ({ text: str(block.text) ?? "", streaming: true }));
    else if (block.type === "thinking") b.upsert(key, "reasoning", () => ({ text: "", streaming: true }));
    else if (block.type === "tool_use") {
      const name = str(block.name) ?? "tool";
      b.upsert(key, "tool", () => ({ name, summary: "", input: "", status: "running" as const, result: null }));
      const id = str(block.id);
      if (id) b.tools.set(id, key);
    }
  } else if (e.type === "content_block_delta") {
    const d = obj(e.delta) ?? {};
    if (d.type === "text_delta") {
      // Without its start (scrolled out of a live tail), the text begins mid-way: "…" says so.
      const t = b.upsert(key, "text", () => ({ text: "…", streaming: true }));
      t.text = appendCapped(t.text, str(d.text) ?? "", CAPS.text);
    } else if (d.type === "thinking_delta") {
      const t = b.upsert(key, "reasoning", () => ({ text: "", streaming: true }));
      t.text = appendCapped(t.text, str(d.thinking) ?? "", CAPS.text);
    } else if (d.type === "input_json_delta") {
      s.partialJson.set(key, appendCapped(s.partialJson.get(key) ?? "", str(d.partial_json) ?? "", CAPS.text));
    }
  } else if (e.type === "content_block_stop") {
    const tool = b.get(key, "tool");
    const json = s.partialJson.get(key);
    s.partialJson.delete(key);
    if (tool && json && !tool.input) {
      try {
        const input: unknown = JSON.parse(json);
        tool.input = pretty(input, CAPS.input);
        tool.summary = claudeToolSummary(tool.name, input, b.cwd);
      } catch {
        tool.input = cap(json, CAPS.input);
      }
    }
  }
}

function assistant(b: TranscriptBuilder, s: ClaudeState, m: Json) {
  const real = str(m.id);
  // The whole form of a message that streamed without its start: the same entries, not new ones.
  if (real && s.unnamed && !s.blocks.has(real) && !s.alias.has(real)) {
    s.alias.set(real, s.unnamed);
    s.unnamed = null;
  }
  const id = (real && s.alias.get(real)) ?? real ?? s.message ?? b.nextKey("message");
  const content = Array.isArray(m.content) ? m.content : [];
  for (const raw of content) {
    const block = obj(raw) ?? {};
    const n = s.blocks.get(id) ?? 0;
    s.blocks.set(id, n + 1);
    const key = `${id}:${n}`;
    if (block.type === "text") {
      const t = b.upsert(key, "text", () => ({ text: "", streaming: false }));
      t.text = cap(str(block.text) ?? "", CAPS.text);
      t.streaming = false;
    } else if (block.type === "thinking") {
      const t = b.upsert(key, "reasoning", () => ({ text: "", streaming: false }));
      t.text = cap(str(block.thinking) ?? "", CAPS.text);
      t.streaming = false;
    } else if (block.type === "tool_use") {
      const name = str(block.name) ?? "tool";
      const t = b.upsert(key, "tool", () => ({
        name,
        summary: "",
        input: "",
        status: "running" as const,
        result: null,
      }));
      t.name = name;
      t.input = pretty(block.input ?? {}, CAPS.input);
      t.summary = claudeToolSummary(name, block.input, b.cwd);
      const toolId = str(block.id);
      if (toolId) b.tools.set(toolId, key);
    }
  }
}

/** A tool result's text: a string, or text blocks (images named, not shown). */
function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((c) => {
      const part = obj(c) ?? {};
      return part.type === "text" ? (str(part.text) ?? "") : `[${str(part.type) ?? "content"}]`;
    })
    .join("\n");
}

function user(b: TranscriptBuilder, m: Json) {
  const content = Array.isArray(m.content) ? m.content : [];
  for (const raw of content) {
    const block = obj(raw) ?? {};
    if (block.type !== "tool_result") continue;
    const id = str(block.tool_use_id) ?? "";
    // The call itself may have scrolled out of a live tail: the result still shows.
    const key = b.tools.get(id) ?? `tool:${id || b.nextKey("tool")}`;
    const t = b.upsert(key, "tool", () => ({
      name: "tool",
      summary: "",
      input: "",
      status: "running" as const,
      result: null,
    }));
    t.result = cap(resultText(block.content), CAPS.result);
    t.status = block.is_error === true ? "error" : "ok";
    // Claude Code starts a failed command's result with its exit code.
    const exit = /^Exit code (\d+)/.exec(t.result);
    if (exit && t.name === "Bash") t.exitCode = Number(exit[1]);
  }
}

function result(b: TranscriptBuilder, o: Json) {
  const subtype = str(o.subtype) ?? "";
  const ok = o.is_error !== true && subtype === "success";
  const usage = obj(o.usage) ?? {};
  const cost = num(o.total_cost_usd);
  const ms = num(o.duration_ms);
  const turns = num(o.num_turns);
  const tokens = (n: number | undefined, what: string) => (n ? `${n.toLocaleString("en-US")} ${what}` : undefined);
  const detail = [
    turns !== undefined ? plural(turns, "turn") : undefined,
    cost !== undefined ? `$${cost.toFixed(4)}` : undefined,
    ms !== undefined ? `${(ms / 1000).toFixed(1)} s` : undefined,
    tokens(num(usage.input_tokens), "in"),
    tokens(num(usage.output_tokens), "out"),
    tokens(num(usage.cache_read_input_tokens), "cache read"),
  ].filter(Boolean);
  const text = ok
    ? "Finished"
    : `Ended with an error${subtype && subtype !== "success" ? ` (${subtype})` : ""}: ${cap(str(o.result) ?? "", CAPS.input)}`;
  b.push({ key: b.nextKey("result"), kind: "result", ok, text, detail: detail.join(" · ") });
}

function rateLimit(b: TranscriptBuilder, info: Json) {
  const status = str(info.status) ?? "";
  if (status === "allowed") return;
  const kind = (str(info.rateLimitType) ?? "usage").replaceAll("_", " ");
  const resets = num(info.resetsAt);
  const when = resets !== undefined ? `; resets ${new Date(resets * 1000).toISOString().slice(0, 16)} UTC` : "";
  const used = num(info.utilization);
  const share = used !== undefined ? ` (${Math.round(used <= 1 ? used * 100 : used)}% used)` : "";
  const text = `Usage limit (${kind}): ${status || "unknown"}${share}${when}`;
  b.push({ key: b.nextKey("limit"), kind: status === "rejected" ? "error" : "notice", text });
}

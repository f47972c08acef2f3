// Codex's `exec --json` JSONL: thread/turn events, and items (agent_message,
// reasoning, command_execution, file_change, mcp_tool_call, web_search,
// todo_list, error) reported as item.started, item.updated, item.completed.
import type { TranscriptBuilder } from "./builder";
import { fileChangeSummary } from "./tool-summary";
import { cap, num, obj, oneLine, pretty, relPath, str, unwrapShell, type Json } from "./text";
import { CAPS, type ToolStatus } from "./types";

export const CODEX_TYPES = new Set([
  "thread.started",
  "turn.started",
  "turn.completed",
  "turn.failed",
  "item.started",
  "item.updated",
  "item.completed",
  "error",
]);

/** Codex reports a dropped stream it is retrying as an `error` event. */
const RETRYING = /reconnecting|retrying|retry \d/i;

export function codexLine(b: TranscriptBuilder, o: Json): void {
  switch (o.type) {
    case "thread.started":
      b.push({ key: b.nextKey("thread"), kind: "session", text: `Codex · thread ${str(o.thread_id) ?? "?"}` });
      return;
    case "turn.completed":
      b.push({
        key: b.nextKey("result"),
        kind: "result",
        ok: true,
        text: "Turn completed",
        detail: usage(obj(o.usage)),
      });
      return;
    case "turn.failed": {
      const message = str(obj(o.error)?.message) ?? "the turn failed";
      b.push({
        key: b.nextKey("result"),
        kind: "result",
        ok: false,
        text: `Turn failed: ${cap(message, CAPS.input)}`,
        detail: "",
      });
      return;
    }
    case "error": {
      const message = cap(str(o.message) ?? "error", CAPS.input);
      b.push({ key: b.nextKey("error"), kind: RETRYING.test(message) ? "retry" : "error", text: message });
      return;
    }
    case "item.started":
    case "item.updated":
    case "item.completed":
      return item(b, obj(o.item) ?? {}, o.type !== "item.completed");
  }
}

function usage(u: Json | undefined): string {
  if (!u) return "";
  const n = (v: unknown) => (num(v) ?? 0).toLocaleString("en-US");
  const cached = num(u.cached_input_tokens);
  const reasoning = num(u.reasoning_output_tokens);
  return [
    `${n(u.input_tokens)} in${cached ? ` (${n(cached)} cached)` : ""}`,
    `${n(u.output_tokens)} out${reasoning ? ` (${n(reasoning)} reasoning)` : ""}`,
  ].join(" · ");
}

function statusOf(item: Json, open: boolean): ToolStatus {
  const s = str(item.status);
  if (s === "failed" || s === "declined" || s === "error") return "error";
  if (open || s === "in_progress") return "running";
  const exit = num(item.exit_code);
  return exit !== undefined && exit !== 0 ? "error" : "ok";
}

function item(b: TranscriptBuilder, it: Json, open: boolean) {
  const key = `item:${str(it.id) ?? b.nextKey("item")}`;
  const type = str(it.type) ?? "";
  const tool = (name: string, summary: string, input: string) => {
    const t = b.upsert(key, "tool", () => ({ name, summary, input, status: "running" as const, result: null }));
    Object.assign(t, { name, summary, input, status: statusOf(it, open) });
    return t;
  };
  switch (type) {
    case "agent_message":
    case "reasoning": {
      const kind = type === "agent_message" ? "text" : "reasoning";
      const t = b.upsert(key, kind, () => ({ text: "", streaming: open }));
      t.text = cap(str(it.text) ?? "", CAPS.text);
      t.streaming = open;
      return;
    }
    case "command_execution": {
      const command = unwrapShell(str(it.command) ?? "");
      const t = tool("Shell", oneLine(command, CAPS.summary), cap(command, CAPS.input));
      const out = str(it.aggregated_output) ?? "";
      t.result = out || !open ? cap(out, CAPS.result) : null;
      t.exitCode = num(it.exit_code) ?? null;
      return;
    }
    case "file_change": {
      const changes = Array.isArray(it.changes) ? it.changes.map(obj) : [];
      const list = changes.map((c) => `${str(c?.kind) ?? "change"} ${relPath(str(c?.path) ?? "", b.cwd)}`).join("\n");
      tool("apply_patch", fileChangeSummary(it.changes, b.cwd), cap(list, CAPS.input));
      return;
    }
    case "mcp_tool_call": {
      const name = [str(it.server), str(it.tool)].filter(Boolean).join(".") || "mcp";
      const args = it.arguments;
      const t = tool(
        name,
        oneLine(typeof args === "string" ? args : JSON.stringify(args ?? {}), CAPS.summary),
        pretty(args ?? {}, CAPS.input),
      );
      const error = str(obj(it.error)?.message);
      const res = obj(it.result);
      if (error) t.result = cap(error, CAPS.result);
      else if (res) t.result = pretty(res.content ?? res, CAPS.result);
      return;
    }
    case "web_search":
      tool("web_search", oneLine(str(it.query) ?? "", CAPS.summary), str(it.query) ?? "");
      return;
    case "todo_list": {
      const items = (Array.isArray(it.items) ? it.items : []).map((raw) => {
        const i = obj(raw) ?? {};
        return { text: oneLine(str(i.text) ?? "", CAPS.summary), done: i.completed === true };
      });
      const t = b.upsert(key, "todo", () => ({ items }));
      t.items = items;
      return;
    }
    case "error":
      b.upsert(key, "error", () => ({ text: cap(str(it.message) ?? "error", CAPS.input) }));
      return;
    default:
      b.upsert(key, "notice", () => ({ text: `Codex: ${type || "item"}` }));
  }
}

// Wire formats of the two protocols: the events an answer is streamed as
// (Anthropic Messages SSE; OpenAI Responses SSE as Codex reads it) and the
// non-streaming bodies. Pure: a Turn in, a list of SSE frames or a body out.
import type { ToolCall } from "./conversation";

export interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** One SSE frame: `event: <event>\ndata: <json>\n\n`. */
export interface Frame {
  event: string;
  data: Record<string, unknown>;
}

let counter = 0;
export const newId = (prefix: string) => `${prefix}_${Date.now().toString(36)}${(++counter).toString(36)}`;

/** The text cut into `n` pieces (at least one), so it can be streamed as deltas. */
export function pieces(text: string, n: number): string[] {
  if (text === "") return [];
  const count = Math.max(1, Math.min(n, text.length));
  const size = Math.ceil(text.length / count);
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

// ---- Anthropic Messages ----

function anthropicUsage(u: Usage) {
  return {
    input_tokens: u.input,
    cache_creation_input_tokens: u.cacheWrite,
    cache_read_input_tokens: u.cacheRead,
    output_tokens: u.output,
  };
}

/**
 * The frames of one streamed message. Text deltas are separate frames (their count is
 * `chunks`) so a caller can space them out in time; `textFrames` says which ones they are.
 */
export function anthropicFrames(model: string, text: string, calls: ToolCall[], usage: Usage, chunks: number) {
  const id = newId("msg");
  const frames: Frame[] = [];
  frames.push({
    event: "message_start",
    data: {
      type: "message_start",
      message: {
        id,
        type: "message",
        role: "assistant",
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...anthropicUsage(usage), output_tokens: 1 },
      },
    },
  });
  let index = 0;
  if (text !== "") {
    frames.push({
      event: "content_block_start",
      data: { type: "content_block_start", index, content_block: { type: "text", text: "" } },
    });
    for (const piece of pieces(text, chunks))
      frames.push({
        event: "content_block_delta",
        data: { type: "content_block_delta", index, delta: { type: "text_delta", text: piece } },
      });
    frames.push({ event: "content_block_stop", data: { type: "content_block_stop", index } });
    index++;
  }
  for (const call of calls) {
    frames.push({
      event: "content_block_start",
      data: {
        type: "content_block_start",
        index,
        content_block: { type: "tool_use", id: call.id, name: call.name, input: {} },
      },
    });
    for (const piece of pieces(JSON.stringify(call.input ?? {}), 3))
      frames.push({
        event: "content_block_delta",
        data: { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: piece } },
      });
    frames.push({ event: "content_block_stop", data: { type: "content_block_stop", index } });
    index++;
  }
  frames.push({
    event: "message_delta",
    data: {
      type: "message_delta",
      delta: { stop_reason: calls.length > 0 ? "tool_use" : "end_turn", stop_sequence: null },
      usage: anthropicUsage(usage),
    },
  });
  frames.push({ event: "message_stop", data: { type: "message_stop" } });
  return frames;
}

export function anthropicBody(model: string, text: string, calls: ToolCall[], usage: Usage) {
  return {
    id: newId("msg"),
    type: "message",
    role: "assistant",
    model,
    content: [
      ...(text !== "" ? [{ type: "text", text }] : []),
      ...calls.map((c) => ({ type: "tool_use", id: c.id, name: c.name, input: c.input ?? {} })),
    ],
    stop_reason: calls.length > 0 ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage: anthropicUsage(usage),
  };
}

export function anthropicError(status: number, message: string) {
  const type =
    status === 429
      ? "rate_limit_error"
      : status === 529
        ? "overloaded_error"
        : status >= 500
          ? "api_error"
          : "invalid_request_error";
  return { type: "error", error: { type, message } };
}

// ---- OpenAI Responses (as Codex reads it) ----

function openaiUsage(u: Usage) {
  return {
    input_tokens: u.input + u.cacheRead,
    input_tokens_details: { cached_tokens: u.cacheRead },
    output_tokens: u.output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: u.input + u.cacheRead + u.output,
  };
}

/** A tool call as an output item: a string input is a freeform custom tool call (apply_patch). */
function callItem(call: ToolCall) {
  return typeof call.input === "string"
    ? {
        type: "custom_tool_call",
        id: newId("ctc"),
        status: "completed",
        call_id: call.id,
        name: call.name,
        input: call.input,
      }
    : {
        type: "function_call",
        id: newId("fc"),
        status: "completed",
        call_id: call.id,
        name: call.name,
        arguments: JSON.stringify(call.input ?? {}),
      };
}

function response(id: string, model: string, status: string, output: unknown[], usage: Usage | null) {
  return {
    id,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    status,
    model,
    output,
    usage: usage ? openaiUsage(usage) : null,
  };
}

export function openaiFrames(model: string, text: string, calls: ToolCall[], usage: Usage, chunks: number) {
  const id = newId("resp");
  const frames: Frame[] = [];
  let seq = 0;
  const push = (type: string, rest: Record<string, unknown>) =>
    frames.push({ event: type, data: { type, sequence_number: seq++, ...rest } });
  push("response.created", { response: response(id, model, "in_progress", [], null) });
  push("response.in_progress", { response: response(id, model, "in_progress", [], null) });
  const output: unknown[] = [];
  let index = 0;
  if (text !== "") {
    const itemId = newId("msg");
    const part = { type: "output_text", text: "", annotations: [] };
    push("response.output_item.added", {
      output_index: index,
      item: { type: "message", id: itemId, status: "in_progress", role: "assistant", content: [] },
    });
    push("response.content_part.added", { item_id: itemId, output_index: index, content_index: 0, part });
    for (const piece of pieces(text, chunks))
      push("response.output_text.delta", { item_id: itemId, output_index: index, content_index: 0, delta: piece });
    push("response.output_text.done", { item_id: itemId, output_index: index, content_index: 0, text });
    push("response.content_part.done", {
      item_id: itemId,
      output_index: index,
      content_index: 0,
      part: { ...part, text },
    });
    const item = {
      type: "message",
      id: itemId,
      status: "completed",
      role: "assistant",
      content: [{ type: "output_text", text, annotations: [] }],
    };
    push("response.output_item.done", { output_index: index, item });
    output.push(item);
    index++;
  }
  for (const call of calls) {
    const item = callItem(call);
    push("response.output_item.added", { output_index: index, item: { ...item, status: "in_progress" } });
    push("response.output_item.done", { output_index: index, item });
    output.push(item);
    index++;
  }
  push("response.completed", { response: response(id, model, "completed", output, usage) });
  return frames;
}

export function openaiBody(model: string, text: string, calls: ToolCall[], usage: Usage) {
  const output: unknown[] = [];
  if (text !== "")
    output.push({
      type: "message",
      id: newId("msg"),
      status: "completed",
      role: "assistant",
      content: [{ type: "output_text", text, annotations: [] }],
    });
  output.push(...calls.map(callItem));
  return response(newId("resp"), model, "completed", output, usage);
}

export function openaiError(status: number, message: string) {
  const type = status === 429 ? "rate_limit_exceeded" : status >= 500 ? "server_error" : "invalid_request_error";
  return { error: { type, code: type, message, param: null } };
}

/**
 * A scripted model server for tests against the REAL agent CLIs (Claude Code, Codex).
 * It is a fake only of what cannot run here: the model. It speaks, over plain HTTP on
 * 127.0.0.1 and a random port:
 *
 * - the Anthropic Messages API: POST /v1/messages (streaming SSE: message_start,
 *   content_block_start/delta/stop for text and tool_use with input_json_delta,
 *   message_delta with usage, message_stop; or a JSON body when `stream` is false),
 *   POST /v1/messages/count_tokens; point Claude Code at it with
 *   ANTHROPIC_BASE_URL=<url> (ANTHROPIC_API_KEY or CLAUDE_CODE_OAUTH_TOKEN any value);
 * - the OpenAI Responses API as Codex 0.171 uses it: POST /v1/responses (SSE:
 *   response.created, response.output_item.added/done, response.output_text.delta,
 *   function_call / custom_tool_call items, response.completed with usage) and
 *   GET /v1/models; point Codex at `openaiBaseUrl` (`<url>/v1`) through a provider
 *   (`-c model_providers.<id>.base_url=<url>/v1`).
 *
 * API (keep it small and stable; other tests depend on it):
 *
 *   const server = await startModelServer({ script });   // options: sideScript, models, host
 *   server.url / server.port / server.openaiBaseUrl
 *   server.requests   every request, in order (RecordedRequest)
 *   server.close()
 *
 * `script(conversation)` is called for every model request with the conversation so far
 * (conversation.ts: messages, tool calls and results, tools offered, model) and returns
 * the next assistant Turn: text and/or tool calls, optional usage, and faults:
 *   { streamSeconds: 30 }          text deltas spread evenly over 30 s (a slow turn)
 *   { stall: "hang" | "close" }    after the first text delta, hang (until close()) or cut the connection
 *   { error: { status: 429, headers, body? } }   an HTTP error instead of an answer
 *   { headers }                    extra response headers on a normal answer
 * Helpers build the rate-limit shapes: anthropicRateLimitHeaders(), codexUsageLimitError().
 *
 * A side call (no tools offered, e.g. Claude Code's title or quota check on a small model)
 * goes to `sideScript` when given, else gets a one-word answer; it is recorded (and its
 * usage counted) like any other request, with `side: true`.
 *
 * Usage not given by the turn is estimated from the request and answer sizes (4 chars a
 * token), so every request reports non-zero tokens.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { anthropicConversation, openaiConversation, type Conversation, type ToolCall } from "./conversation";
import {
  anthropicBody,
  anthropicError,
  anthropicFrames,
  newId,
  openaiBody,
  openaiError,
  openaiFrames,
  type Frame,
  type Usage,
} from "./protocols";

export type { Conversation, Message, ToolCall, ToolResult } from "./conversation";

export interface Turn {
  text?: string;
  toolCalls?: ToolCall[];
  usage?: Partial<Usage>;
  /** Spread the text deltas evenly over this many seconds. */
  streamSeconds?: number;
  /** How many text deltas (default 4, or one a second when streamSeconds is set). */
  chunks?: number;
  /** Fault after the first text delta: keep the connection open and silent, or destroy it. */
  stall?: "hang" | "close";
  /** Answer with this HTTP error instead. */
  error?: { status: number; headers?: Record<string, string>; body?: unknown; message?: string };
  headers?: Record<string, string>;
}

export type Script = (conversation: Conversation) => Turn | Promise<Turn>;

export interface RecordedRequest {
  api: "anthropic" | "openai" | "other";
  method: string;
  path: string;
  model: string;
  stream: boolean;
  side: boolean;
  /** HTTP status sent (200 for a stream, even one that stalled). */
  status: number;
  usage: Usage;
  toolCalls: string[];
  /** Tool names offered in the request. */
  tools: string[];
  headers: Record<string, string | string[] | undefined>;
  at: Date;
}

export interface ModelServerOptions {
  script: Script;
  sideScript?: Script;
  /** Model name answered by GET /v1/models (default: gpt-5-codex). */
  models?: string[];
  /** Address to listen on (default 127.0.0.1); `url` names it. */
  host?: string;
}

export interface ModelServer {
  url: string;
  port: number;
  /** `${url}/v1`, the base URL an OpenAI client (Codex's provider) wants. */
  openaiBaseUrl: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** Claude Code's unified rate-limit headers (read from its 2.1.x binary). Times are epoch seconds. */
export function anthropicRateLimitHeaders(opts: {
  status: "allowed" | "allowed_warning" | "rejected";
  resetsAt: number;
  claim?: "five_hour" | "seven_day" | "seven_day_opus" | "seven_day_sonnet";
  utilization5h?: number;
  utilization7d?: number;
}): Record<string, string> {
  const claim = opts.claim ?? "five_hour";
  const window = claim === "five_hour" ? "5h" : "7d";
  const h: Record<string, string> = {
    "anthropic-ratelimit-unified-status": opts.status,
    "anthropic-ratelimit-unified-reset": String(opts.resetsAt),
    "anthropic-ratelimit-unified-representative-claim": claim,
    [`anthropic-ratelimit-unified-${window}-status`]: opts.status,
    [`anthropic-ratelimit-unified-${window}-reset`]: String(opts.resetsAt),
    "anthropic-ratelimit-unified-fallback": "unavailable",
    "anthropic-ratelimit-unified-overage-status": "rejected",
    "anthropic-ratelimit-unified-overage-disabled-reason": "org_level_disabled",
  };
  if (opts.utilization5h !== undefined) h["anthropic-ratelimit-unified-5h-utilization"] = String(opts.utilization5h);
  if (opts.utilization7d !== undefined) h["anthropic-ratelimit-unified-7d-utilization"] = String(opts.utilization7d);
  return h;
}

/** Codex's usage-limit 429 (a ChatGPT plan's window), with its x-codex rate-limit headers. */
export function codexUsageLimitError(opts: { resetsAt: number; usedPercent?: number; windowMinutes?: number }) {
  return {
    status: 429,
    headers: {
      "x-codex-primary-used-percent": String(opts.usedPercent ?? 100),
      "x-codex-primary-window-minutes": String(opts.windowMinutes ?? 300),
      "x-codex-primary-reset-at": String(opts.resetsAt),
    },
    body: {
      error: {
        type: "usage_limit_reached",
        message: "The usage limit has been reached",
        plan_type: "plus",
        resets_at: opts.resetsAt,
        resets_in_seconds: Math.max(0, opts.resetsAt - Math.floor(Date.now() / 1000)),
      },
    },
  };
}

const estimate = (s: string) => Math.max(1, Math.ceil(s.length / 4));
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(t), resolve()), { once: true });
  });

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const raw = Buffer.concat(chunks).toString("utf8");
  if (!raw) return {};
  try {
    const v = JSON.parse(raw) as unknown;
    return typeof v === "object" && v !== null ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

export async function startModelServer(options: ModelServerOptions): Promise<ModelServer> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const closing = new AbortController();

  async function answer(api: "anthropic" | "openai", req: IncomingMessage, res: ServerResponse, path: string) {
    const body = await readBody(req);
    const conversation = api === "anthropic" ? anthropicConversation(path, body) : openaiConversation(path, body);
    const side = conversation.tools.length === 0;
    const turn: Turn = side
      ? ((await options.sideScript?.(conversation)) ?? { text: "OK" })
      : await options.script(conversation);
    const text = turn.text ?? "";
    const calls = (turn.toolCalls ?? []).map((c) => ({
      ...c,
      id: c.id ?? newId(api === "anthropic" ? "toolu" : "call"),
    }));
    const usage: Usage = {
      input: turn.usage?.input ?? estimate(JSON.stringify(body)),
      output: turn.usage?.output ?? estimate(text + JSON.stringify(calls.map((c) => c.input))),
      cacheRead: turn.usage?.cacheRead ?? 0,
      cacheWrite: turn.usage?.cacheWrite ?? 0,
    };
    const record: RecordedRequest = {
      api,
      method: req.method ?? "",
      path,
      model: conversation.model,
      stream: conversation.stream,
      side,
      status: turn.error?.status ?? 200,
      usage: turn.error ? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } : usage,
      toolCalls: turn.error ? [] : calls.map((c) => c.name),
      tools: conversation.tools,
      headers: req.headers,
      at: new Date(),
    };
    requests.push(record);
    if (turn.error) {
      const message = turn.error.message ?? `scripted error ${turn.error.status}`;
      const errBody =
        turn.error.body ?? (api === "anthropic" ? anthropicError : openaiError)(turn.error.status, message);
      return json(res, turn.error.status, errBody, turn.error.headers);
    }
    const chunks = turn.chunks ?? (turn.streamSeconds ? Math.max(2, Math.ceil(turn.streamSeconds)) : 4);
    if (!conversation.stream) {
      const out =
        api === "anthropic"
          ? anthropicBody(conversation.model, text, calls, usage)
          : openaiBody(conversation.model, text, calls, usage);
      return json(res, 200, out, turn.headers);
    }
    const frames: Frame[] = (api === "anthropic" ? anthropicFrames : openaiFrames)(
      conversation.model,
      text,
      calls,
      usage,
      chunks,
    );
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", ...turn.headers });
    res.flushHeaders();
    const isTextDelta = (f: Frame) =>
      f.event === "response.output_text.delta" ||
      (f.event === "content_block_delta" && (f.data.delta as { type?: string } | undefined)?.type === "text_delta");
    const gap = turn.streamSeconds ? (turn.streamSeconds * 1000) / chunks : 0;
    let sentText = false;
    for (const frame of frames) {
      if (closing.signal.aborted || res.destroyed) return;
      if (isTextDelta(frame)) {
        if (sentText && turn.stall === "hang") return void (await sleep(2 ** 31 - 1, closing.signal), res.destroy());
        // Let what was written reach the client first: the cut comes mid-answer, not before it.
        if (sentText && turn.stall === "close") return void (await sleep(100, closing.signal), res.destroy());
        if (sentText && gap > 0) await sleep(gap, closing.signal);
        sentText = true;
      }
      res.write(`event: ${frame.event}\ndata: ${JSON.stringify(frame.data)}\n\n`);
    }
    res.end();
  }

  const server: Server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0]!;
    const handle = async () => {
      if (req.method === "POST" && /\/messages$/.test(path)) return answer("anthropic", req, res, path);
      if (req.method === "POST" && /\/responses$/.test(path)) return answer("openai", req, res, path);
      const body = await readBody(req);
      const other = (status: number) =>
        requests.push({
          api: "other",
          method: req.method ?? "",
          path,
          model: typeof body.model === "string" ? body.model : "",
          stream: false,
          side: true,
          status,
          usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
          toolCalls: [],
          tools: [],
          headers: req.headers,
          at: new Date(),
        });
      // Claude Code's connectivity probe.
      if (path === "/api/hello") {
        other(200);
        return json(res, 200, {});
      }
      if (req.method === "POST" && /\/messages\/count_tokens$/.test(path)) {
        other(200);
        return json(res, 200, { input_tokens: estimate(JSON.stringify(body)) });
      }
      if (req.method === "GET" && /\/models$/.test(path)) {
        other(200);
        const ids = options.models ?? ["gpt-5-codex"];
        return json(res, 200, {
          object: "list",
          data: ids.map((id) => ({ id, object: "model", owned_by: "test" })),
          models: [],
        });
      }
      other(404);
      json(res, 404, { error: { type: "not_found", message: `no ${req.method} ${path} here` } });
    };
    handle().catch((err: unknown) => {
      if (!res.headersSent) json(res, 500, { error: { type: "api_error", message: String(err) } });
      else res.destroy();
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  return {
    url,
    port,
    openaiBaseUrl: `${url}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        closing.abort();
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

// The scripted model server's own behaviour, as clients see it over HTTP:
// streamed answers in both protocols, usage recorded, rate-limit errors with
// their headers, slow streams spread over time, and streams cut mid-answer.
import { afterEach, describe, expect, it } from "vitest";
import {
  anthropicRateLimitHeaders,
  codexUsageLimitError,
  startModelServer,
  type ModelServer,
  type Script,
} from "./model-server";

let server: ModelServer | undefined;
afterEach(async () => server?.close());

const post = (path: string, body: object) =>
  fetch(`${server!.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
const events = (sse: string) =>
  sse
    .split("\n\n")
    .filter((f) => f.startsWith("event: "))
    .map((f) => JSON.parse(f.split("\ndata: ")[1]!) as { type: string; [k: string]: unknown });
const tools = [{ name: "Edit", input_schema: {} }];

describe("model server", () => {
  it("streams an Anthropic message with text and a tool_use built from input_json_delta, and records its usage", async () => {
    server = await startModelServer({
      script: (c) => ({
        text: `turn-${c.turn}xy`, // 8 characters: 4 deltas
        toolCalls: [{ name: "Edit", input: { file_path: "/a", old_string: "x", new_string: "y" } }],
        usage: { input: 100, output: 7 },
      }),
    });
    const res = await post("/v1/messages", {
      model: "claude-x",
      stream: true,
      tools,
      messages: [{ role: "user", content: "hi" }],
    });
    const ev = events(await res.text());
    expect(ev.map((e) => e.type)).toEqual([
      "message_start",
      ...[
        "content_block_start",
        "content_block_delta",
        "content_block_delta",
        "content_block_delta",
        "content_block_delta",
        "content_block_stop",
      ],
      ...[
        "content_block_start",
        "content_block_delta",
        "content_block_delta",
        "content_block_delta",
        "content_block_stop",
      ],
      "message_delta",
      "message_stop",
    ]);
    const json = ev
      .filter((e) => (e.delta as { type?: string } | undefined)?.type === "input_json_delta")
      .map((e) => (e.delta as { partial_json: string }).partial_json)
      .join("");
    expect(JSON.parse(json)).toEqual({ file_path: "/a", old_string: "x", new_string: "y" });
    expect(ev.at(-2)).toMatchObject({
      delta: { stop_reason: "tool_use" },
      usage: { input_tokens: 100, output_tokens: 7 },
    });
    expect(server.requests).toMatchObject([
      { api: "anthropic", model: "claude-x", side: false, usage: { input: 100, output: 7 }, toolCalls: ["Edit"] },
    ]);
  });

  it("answers a side call (no tools) without the script, non-streaming, and counts it", async () => {
    server = await startModelServer({ script: () => ({ text: "main" }) });
    const res = await post("/v1/messages", { model: "claude-haiku", messages: [{ role: "user", content: "title?" }] });
    expect(await res.json()).toMatchObject({ type: "message", content: [{ type: "text", text: "OK" }] });
    expect(server.requests[0]).toMatchObject({ side: true, model: "claude-haiku" });
    expect(server.requests[0]!.usage.input).toBeGreaterThan(0);
  });

  it("streams an OpenAI Responses turn: a freeform apply_patch call, a function call, usage on response.completed", async () => {
    const script: Script = (c) =>
      c.turn === 0
        ? {
            toolCalls: [
              { name: "apply_patch", input: "*** Begin Patch\n*** End Patch\n" },
              { name: "exec_command", input: { cmd: "ls" } },
            ],
          }
        : {
            text: `saw ${c.toolResults.map((r) => `${r.name}=${r.output}`).join(",")}`,
            usage: { input: 50, output: 5, cacheRead: 20 },
          };
    server = await startModelServer({ script });
    const first = events(
      await (
        await post("/v1/responses", {
          model: "gpt-5.5",
          stream: true,
          tools: [{ type: "custom", name: "apply_patch" }],
          input: "fix it",
        })
      ).text(),
    );
    const items = first
      .filter((e) => e.type === "response.output_item.done")
      .map((e) => e.item as Record<string, unknown>);
    expect(items).toMatchObject([
      { type: "custom_tool_call", name: "apply_patch", input: "*** Begin Patch\n*** End Patch\n" },
      { type: "function_call", name: "exec_command", arguments: '{"cmd":"ls"}' },
    ]);
    const [patch, exec] = items as { call_id: string }[];
    const second = events(
      await (
        await post("/v1/responses", {
          model: "gpt-5.5",
          stream: true,
          tools: [{ type: "custom", name: "apply_patch" }],
          input: [
            { type: "message", role: "user", content: [{ type: "input_text", text: "fix it" }] },
            { type: "custom_tool_call", name: "apply_patch", call_id: patch!.call_id, input: "..." },
            { type: "function_call", name: "exec_command", call_id: exec!.call_id, arguments: '{"cmd":"ls"}' },
            { type: "custom_tool_call_output", call_id: patch!.call_id, output: "Done!" },
            { type: "function_call_output", call_id: exec!.call_id, output: "a.txt" },
          ],
        })
      ).text(),
    );
    expect(
      second
        .filter((e) => e.type === "response.output_text.delta")
        .map((e) => e.delta)
        .join(""),
    ).toBe("saw apply_patch=Done!,exec_command=a.txt");
    expect(second.at(-1)).toMatchObject({
      type: "response.completed",
      response: { usage: { input_tokens: 70, input_tokens_details: { cached_tokens: 20 }, output_tokens: 5 } },
    });
  });

  it("sends 429s with Claude's unified rate-limit headers and Codex's usage-limit body", async () => {
    const resetsAt = Math.floor(Date.now() / 1000) + 600;
    server = await startModelServer({
      script: (c) =>
        c.api === "anthropic"
          ? {
              error: {
                status: 429,
                headers: anthropicRateLimitHeaders({ status: "rejected", resetsAt, utilization5h: 1 }),
              },
            }
          : { error: codexUsageLimitError({ resetsAt }) },
    });
    const a = await post("/v1/messages", { model: "m", stream: true, tools, messages: [] });
    expect(a.status).toBe(429);
    expect(a.headers.get("anthropic-ratelimit-unified-status")).toBe("rejected");
    expect(a.headers.get("anthropic-ratelimit-unified-reset")).toBe(String(resetsAt));
    expect(a.headers.get("anthropic-ratelimit-unified-representative-claim")).toBe("five_hour");
    expect(a.headers.get("anthropic-ratelimit-unified-5h-utilization")).toBe("1");
    expect(await a.json()).toMatchObject({ type: "error", error: { type: "rate_limit_error" } });
    const o = await post("/v1/responses", {
      model: "m",
      stream: true,
      tools: [{ type: "function", name: "x" }],
      input: "hi",
    });
    expect(o.status).toBe(429);
    expect(await o.json()).toMatchObject({ error: { type: "usage_limit_reached", resets_at: resetsAt } });
    expect(server.requests.map((r) => r.status)).toEqual([429, 429]);
  });

  it("spreads a slow turn's text over time, and cuts a stream that stalls or closes", async () => {
    server = await startModelServer({
      script: (c) =>
        c.userText === "slow"
          ? { text: "abcd", streamSeconds: 1.2, chunks: 4 }
          : { text: "abcdef", chunks: 3, stall: c.userText === "close" ? "close" : "hang" },
    });
    const started = Date.now();
    const slow = events(
      await (
        await post("/v1/messages", { model: "m", stream: true, tools, messages: [{ role: "user", content: "slow" }] })
      ).text(),
    );
    expect(slow.filter((e) => e.type === "content_block_delta")).toHaveLength(4);
    expect(Date.now() - started).toBeGreaterThanOrEqual(800); // three gaps of 0.3 s: never faster, however loaded
    const closed = await post("/v1/messages", {
      model: "m",
      stream: true,
      tools,
      messages: [{ role: "user", content: "close" }],
    });
    await expect(closed.text()).rejects.toThrow();
    const hung = await post("/v1/messages", {
      model: "m",
      stream: true,
      tools,
      messages: [{ role: "user", content: "hang" }],
    });
    const reader = hung.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain("message_start");
    const pending = reader
      .read()
      .then(async function more(r): Promise<string> {
        return r.done ? "done" : more(await reader.read());
      })
      .catch(() => "cut");
    await server.close();
    server = undefined;
    expect(await pending).toMatch(/done|cut/);
  });
});

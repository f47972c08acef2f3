import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentRunError, ralph, usageLimitSignalOf } from "../engine";
import { AgentError } from "./agent-error";
import { request, tempRoot, testDeps } from "./fixtures/harness";
import { startLlmServer, type LlmServer } from "./fixtures/llm-server";
import { createLlmAgent } from "./llm.executor";
import { llmAgentSchema } from "./llm.schema";

let server: LlmServer;
const tmp = tempRoot();
const KEY = "sk-test-abcdef123456";
const deps = () => testDeps(tmp.root, { "env:OPENAI_API_KEY": KEY, "env:ANTHROPIC_API_KEY": KEY });
const agent = (config: Record<string, unknown>) =>
  createLlmAgent(llmAgentSchema.parse({ kind: "llm", baseURL: server.baseURL, ...config }), deps());

beforeAll(async () => {
  server = await startLlmServer();
});
afterAll(async () => {
  await server.close();
  tmp.cleanup();
});

const engineShouldRetry = (error: unknown) => !(error instanceof AgentRunError && error.details.retryable === false);

async function withRetries(run: () => Promise<unknown>) {
  return ralph({
    executor: run,
    maxAttempts: 3,
    shouldRetry: engineShouldRetry,
    sleep: () => Promise.resolve(),
    random: () => 0,
  });
}

describe("llm executor", () => {
  it("calls OpenAI chat completions with the key, and turns usage into tokens and cost", async () => {
    server.queue({
      text: "Here it is.\n<promise>COMPLETE</promise>",
      usage: { input: 1000, output: 200, cached: 400 },
    });
    const before = server.requests.length;
    const result = await agent({ provider: "openai", model: "gpt-4o-mini", temperature: 0.2, system: "Be brief." }).run(
      request({ input: "Write a haiku" }),
    );
    const sent = server.requests[before]!;
    expect(sent.path).toBe("/v1/chat/completions");
    expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(sent.body).toMatchObject({ model: "gpt-4o-mini", temperature: 0.2 });
    expect(JSON.stringify(sent.body.messages)).toContain("Write a haiku");
    expect(JSON.stringify(sent.body.messages)).toContain("Be brief.");
    expect(result.output).toContain("Here it is.");
    expect(result.claim).toEqual({ done: true, text: "COMPLETE" });
    expect(result.usage).toEqual({ input: 600, output: 200, cache: 400 });
    expect(result.costUsd).toBeCloseTo((600 * 0.15 + 400 * 0.075 + 200 * 0.6) / 1e6, 10);
    expect(result.meta).toMatchObject({ provider: "openai", model: "gpt-4o-mini", warnings: [] });
  });

  it("calls Anthropic messages with x-api-key", async () => {
    server.queue({ text: "Bonjour", usage: { input: 50, output: 10 } });
    const before = server.requests.length;
    const result = await agent({ provider: "anthropic", model: "claude-sonnet-4-5", maxOutputTokens: 300 }).run(
      request(),
    );
    const sent = server.requests[before]!;
    expect(sent.path).toBe("/v1/messages");
    expect(sent.headers["x-api-key"]).toBe(KEY);
    expect(sent.body.max_tokens).toBe(300);
    expect(result.output).toBe("Bonjour");
    expect(result.claim.done).toBe(false);
    expect(result.usage).toEqual({ input: 50, output: 10, cache: 0 });
    expect(result.costUsd).toBeCloseTo((50 * 3 + 10 * 15) / 1e6, 10);
  });

  it("talks to an OpenAI-compatible local server without a key; an unknown model costs 0 with a warning", async () => {
    server.queue({ text: "local answer" });
    const before = server.requests.length;
    const result = await agent({ provider: "openai-compatible", model: "llama3.1" }).run(request());
    expect(server.requests[before]!.headers.authorization).toBeUndefined();
    expect(result.costUsd).toBe(0);
    expect((result.meta?.warnings as string[])[0]).toMatch(/No price known for model "llama3.1"/);
  });

  it("retries a 429 through the engine's strategy, with no hidden SDK retries", async () => {
    server.queue({ status: 429 }, { text: "after the wait" });
    const before = server.requests.length;
    const outcome = await withRetries(() => agent({ model: "gpt-4o-mini" }).run(request()));
    expect(outcome.status).toBe("success");
    expect(outcome.attempts).toBe(2);
    expect(outcome.failures[0]!.message).toMatch(/rate limited \(HTTP 429\)/);
    expect(server.requests.length - before).toBe(2);
  });

  it("a 429 or an overloaded 529 carries the provider's retry-after and reset headers for the loop's wait", async () => {
    const reset = "2030-01-01T00:00:00Z";
    server.queue({ status: 429, headers: { "retry-after": "42", "anthropic-ratelimit-requests-reset": reset } });
    const limited = await agent({ model: "gpt-4o-mini" })
      .run(request())
      .catch((e: unknown) => e);
    expect(usageLimitSignalOf(limited)).toMatchObject({
      retryAfter: "42",
      resetHeaders: { "anthropic-ratelimit-requests-reset": reset },
    });
    server.queue({ status: 529, error: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}' });
    const overloaded = await agent({ provider: "anthropic", model: "claude-sonnet-4-5" })
      .run(request())
      .catch((e: unknown) => e);
    expect(usageLimitSignalOf(overloaded)?.message).toMatch(/overloaded \(HTTP 529\)/);
    // A plain 500 is an error, not a limit.
    server.queue({ status: 500 });
    expect(
      usageLimitSignalOf(
        await agent({ model: "gpt-4o-mini" })
          .run(request())
          .catch((e: unknown) => e),
      ),
    ).toBeNull();
  });

  it("marks a 500 retryable and sends exactly one request per attempt", async () => {
    server.queue({ status: 500 });
    const before = server.requests.length;
    const error = await agent({ model: "gpt-4o-mini" })
      .run(request())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentError);
    expect((error as AgentError).code).toBe("provider_unavailable");
    expect((error as AgentError).retryable).toBe(true);
    expect(server.requests.length - before).toBe(1);
  });

  it("fails a 4xx clearly and the engine does not retry it", async () => {
    server.queue({ status: 404 });
    const before = server.requests.length;
    const outcome = await withRetries(() => agent({ provider: "anthropic", model: "claude-nope" }).run(request()));
    expect(outcome.status).toBe("exhausted");
    expect(outcome.attempts).toBe(1);
    expect(outcome.failures[0]!.message).toMatch(/rejected the request \(HTTP 404\): Invalid model/);
    expect(server.requests.length - before).toBe(1);
  });

  it("names a missing key by its variable, never by value", async () => {
    const llm = createLlmAgent(
      llmAgentSchema.parse({ kind: "llm", model: "gpt-4o-mini", baseURL: server.baseURL, apiKeyEnv: "MISSING_KEY" }),
      testDeps(tmp.root),
    );
    const error = (await llm.run(request()).catch((e: unknown) => e)) as AgentError;
    expect(error.code).toBe("config");
    expect(error.retryable).toBe(false);
    expect(error.message).toContain("MISSING_KEY");
  });

  it.each([
    ["the fixture server on loopback, with no admin allowlist", () => server.baseURL],
    ["a name that resolves to loopback", () => server.baseURL.replace("127.0.0.1", "localhost")],
    ["cloud metadata", () => "http://169.254.169.254/latest"],
  ])("refuses %s before the key leaves: the SSRF guard covers model calls", async (_, url) => {
    const before = server.requests.length;
    const llm = createLlmAgent(
      llmAgentSchema.parse({ kind: "llm", provider: "openai", model: "gpt-4o-mini", baseURL: url() }),
      testDeps(tmp.root, { "env:OPENAI_API_KEY": KEY }, { allowHosts: [] }),
    );
    const error = await llm.run(request()).then(
      () => null,
      (e: unknown) => e as AgentError,
    );
    expect(error?.code).toBe("ssrf_refused");
    expect(error?.retryable).toBe(false);
    expect(error?.message).not.toContain(KEY);
    expect(server.requests.length).toBe(before);
  });

  it("requires a base URL for OpenAI-compatible servers", () => {
    expect(llmAgentSchema.safeParse({ kind: "llm", provider: "openai-compatible", model: "x" }).success).toBe(false);
  });
});

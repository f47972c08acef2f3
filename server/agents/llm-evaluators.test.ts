import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReflectionContext, ScoreContext, VerifyRequest } from "../engine";
import { AgentError } from "./agent-error";
import { tempRoot, testDeps } from "./fixtures/harness";
import { startLlmServer, type LlmServer } from "./fixtures/llm-server";
import { createReflector, createScorers, createVerifier } from "./registry";

let server: LlmServer;
const tmp = tempRoot();
const KEY = "sk-eval-0123456789";
const deps = () => testDeps(tmp.root, { "env:OPENAI_API_KEY": KEY, "env:ANTHROPIC_API_KEY": KEY });

beforeAll(async () => {
  server = await startLlmServer();
});
afterAll(async () => {
  await server.close();
  tmp.cleanup();
});

const signal = new AbortController().signal;
const lastBody = () => server.requests.at(-1)!.body;
const sentText = (body: Record<string, unknown>) => JSON.stringify(body.messages);

const scoreCtx: ScoreContext = {
  loopId: "l",
  iteration: 2,
  goal: "Explain HMAC",
  input: "Explain HMAC",
  output: "HMAC mixes a key into a hash.",
  claim: { done: false },
  toolCalls: [],
  signal,
};

const verifyRequest = (overrides: Partial<VerifyRequest> = {}): VerifyRequest => ({
  task: "Ship the release notes",
  answer: "Release notes written.",
  iteration: 3,
  previousResults: [{ iteration: 2, answer: "Draft only", complete: false, reason: "no changelog section yet" }],
  signal,
  ...overrides,
});

describe("LLM judge", () => {
  const judge = () =>
    createScorers(
      [{ kind: "llm-judge", model: "gpt-4o-mini", baseURL: server.baseURL, rubric: "Accurate and mentions keys" }],
      deps(),
    )[0]!;

  it("returns the rubric score with its rationale", async () => {
    server.queue({ text: '{"score": 0.8, "rationale": "Accurate, a little short."}' });
    expect(await judge().score(scoreCtx)).toEqual({ score: 0.8, reason: "Accurate, a little short." });
    expect(sentText(lastBody())).toContain("Accurate and mentions keys");
  });

  it("repairs a malformed verdict once", async () => {
    server.queue({ text: "I'd give it 8/10." }, { text: '```json\n{"score": 0.8, "rationale": "fixed"}\n```' });
    const before = server.requests.length;
    expect((await judge().score(scoreCtx)).score).toBe(0.8);
    expect(server.requests.length - before).toBe(2);
    expect(sentText(lastBody())).toContain("I'd give it 8/10.");
  });
});

describe("LLM verifier", () => {
  const verifier = (extra: Record<string, unknown> = {}) =>
    createVerifier(
      { kind: "llm", provider: "anthropic", model: "claude-haiku-4-5", baseURL: server.baseURL, ...extra },
      deps(),
      "l",
    )!;

  it("asks with no tools, 512 output tokens, a bounded answer and the previous attempts", async () => {
    server.queue({ text: '{"complete": true, "reason": "All sections present."}' });
    const verdict = await verifier().verify(verifyRequest({ answer: "A".repeat(6000) }));
    expect(verdict).toEqual({ complete: true, reason: "All sections present." });
    const body = lastBody();
    expect(server.requests.at(-1)!.path).toBe("/v1/messages");
    expect(body.max_tokens).toBe(512);
    expect(body.tools).toBeUndefined();
    const text = sentText(body);
    expect(text).toContain("A".repeat(4000));
    expect(text).not.toContain("A".repeat(4001));
    expect(text).toContain("no changelog section yet");
  });

  it("also judges whether the answer asks the operator, shown the end of a long answer", async () => {
    const tail = "I am blocked until someone rotates the signing key.";
    server.queue({ text: JSON.stringify({ complete: false, reason: "not signed", asksOperator: "Rotate the key." }) });
    const verdict = await verifier().verify(verifyRequest({ answer: "A".repeat(6000), finalMessage: tail }));
    expect(verdict).toEqual({ complete: false, reason: "not signed", question: "Rotate the key." });
    expect(sentText(lastBody())).toContain(`End of the answer:\\n${tail}`);
    // A short answer already ends with it: not sent twice; a null judgement is no question.
    server.queue({ text: '{"complete": true, "reason": "done", "asksOperator": null}' });
    expect(await verifier().verify(verifyRequest({ answer: `Done. ${tail}`, finalMessage: tail }))).toEqual({
      complete: true,
      reason: "done",
    });
    expect(sentText(lastBody())).not.toContain("End of the answer");
  });

  it("repairs malformed JSON once, then fails clearly", async () => {
    server.queue({ text: "yes it is complete" }, { text: '{"complete": false, "reason": "missing the summary"}' });
    expect(await verifier().verify(verifyRequest())).toEqual({
      complete: false,
      reason: "missing the summary (verdict JSON repaired once)",
    });

    server.queue({ text: "yes" }, { text: '{"complete": "yes"}' });
    const error = (await verifier()
      .verify(verifyRequest())
      .catch((e: unknown) => e)) as AgentError;
    expect(error).toBeInstanceOf(AgentError);
    expect(error.message).toMatch(/malformed JSON twice: complete: .*reason/);
  });

  it("reports a 429 as retryable, and the next call succeeds", async () => {
    server.queue({ status: 429 }, { text: '{"complete": false, "reason": "not yet"}' });
    const error = (await verifier()
      .verify(verifyRequest())
      .catch((e: unknown) => e)) as AgentError;
    expect(error.code).toBe("rate_limited");
    expect(error.retryable).toBe(true);
    expect((await verifier().verify(verifyRequest())).complete).toBe(false);
  });

  it("a command verifier completes on exit 0", async () => {
    const pass = createVerifier({ kind: "command", argv: ["true"] }, deps(), "cmd")!;
    const fail = createVerifier({ kind: "command", argv: ["false"] }, deps(), "cmd")!;
    expect((await pass.verify(verifyRequest())).complete).toBe(true);
    expect(await fail.verify(verifyRequest())).toEqual({ complete: false, reason: "exit 1" });
  });
});

describe("reflectors", () => {
  const ctx: ReflectionContext = {
    loopId: "l",
    iteration: 4,
    goal: "Make the tests pass",
    input: "Make the tests pass",
    output: "I changed a file.",
    error: null,
    scores: { tests: 0.25, keywords: 1, length: 0.6 },
    meanScore: 0.62,
    level: "medium",
    history: [],
    signal,
  };

  it("LLM reflector returns a validated reflection (OpenAI-compatible server)", async () => {
    const reflection = {
      summary: "Tests still fail.",
      keyFindings: ["tests at 0.25"],
      rootCauses: ["the fix touched the wrong file"],
      insights: ["read the failing assertion first"],
      suggestions: ["run the tests before finishing"],
    };
    server.queue({ text: JSON.stringify(reflection) });
    const reflector = createReflector(
      { kind: "llm", provider: "openai-compatible", model: "qwen2.5", baseURL: server.baseURL },
      deps(),
    );
    expect(await reflector.reflect(ctx)).toEqual(reflection);
    expect(sentText(lastBody())).toContain("tests: 0.25");
  });

  it("LLM reflector surfaces a 500 as a retryable provider error", async () => {
    server.queue({ status: 500 });
    const reflector = createReflector({ kind: "llm", model: "gpt-4o-mini", baseURL: server.baseURL }, deps());
    const error = (await reflector.reflect(ctx).catch((e: unknown) => e)) as AgentError;
    expect(error.code).toBe("provider_unavailable");
    expect(error.retryable).toBe(true);
  });

  it("rule-based reflector builds the same shape from failing scorers and errors", async () => {
    const reflector = createReflector({ kind: "rule-based" }, deps(), [
      { kind: "command-check", argv: ["npm", "test"] },
      { kind: "keyword", keywords: ["a"] },
      { kind: "length", min: 100 },
    ]);
    const first = await reflector.reflect(ctx);
    expect(first.summary).toBe(
      "Iteration 4 scored 0.62 on average; 2 of 3 checks below full marks (weakest: tests, length).",
    );
    expect(first.keyFindings).toEqual(['"tests" scored 0.25', '"length" scored 0.60']);
    expect(first.suggestions[0]).toBe("Run `npm test` yourself and fix what fails before finishing");
    const second = await reflector.reflect({ ...ctx, iteration: 5, history: [first] });
    expect(second.insights[0]).toMatch(/"tests" has been the weakest check for 2 iterations/);
    const failed = await reflector.reflect({
      ...ctx,
      error: "claude timed out after 1800s; its process group was killed (SIGTERM)",
      scores: {},
      meanScore: null,
    });
    expect(failed.rootCauses[0]).toMatch(/^The agent ran out of time/);
    expect(failed.suggestions[0]).toMatch(/smaller step/);
  });
});

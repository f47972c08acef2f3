// The claim parser recognises the loop's configured completion signal
// (completion.signal), through the real command executor, and a JSON field
// from a model; the claim is recorded, never trusted on its own.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentClaim } from "../engine";
import { detectClaim } from "./claim";
import { createCommandAgent } from "./command.executor";
import { commandAgentSchema } from "./command.schema";
import { request, tempRoot, testDeps } from "./fixtures/harness";
import { startLlmServer, type LlmServer } from "./fixtures/llm-server";
import { createLlmAgent } from "./llm.executor";
import { llmAgentSchema } from "./llm.schema";

const tmp = tempRoot();
let server: LlmServer;
beforeAll(async () => {
  server = await startLlmServer();
});
afterAll(async () => {
  await server.close();
  tmp.cleanup();
});

describe("detectClaim", () => {
  it.each<[string, string, string | undefined, AgentClaim]>([
    ["the default tag", "Done.\n<promise>COMPLETE</promise>", undefined, { done: true, text: "COMPLETE" }],
    [
      "the last tag wins",
      "<promise>COMPLETE</promise> then <promise>AGAIN</promise>",
      undefined,
      { done: true, text: "AGAIN" },
    ],
    ["an empty tag is no claim", "<promise> </promise>", undefined, { done: false }],
    ["no tag", "Still working.", undefined, { done: false }],
    ["a configured tag", "Shipped. <done>SHIPPED</done>", "<done>SHIPPED</done>", { done: true, text: "SHIPPED" }],
    ["the default tag under another signal", "<promise>COMPLETE</promise>", "<done>SHIPPED</done>", { done: false }],
    ["a literal phrase", "ALL CHECKS GREEN, stopping.", "ALL CHECKS GREEN", { done: true, text: "ALL CHECKS GREEN" }],
    ["a phrase absent", "some checks green", "ALL CHECKS GREEN", { done: false }],
  ])("%s", (_name, output, signal, claim) => {
    expect(detectClaim(output, undefined, signal)).toEqual(claim);
  });
});

describe("adapters read the loop's signal", () => {
  const shell = (text: string) =>
    createCommandAgent(
      commandAgentSchema.parse({ kind: "command", argv: ["/bin/sh", "-c", `printf '%s\\n' '${text}'`] }),
      testDeps(tmp.root),
    );

  it("a CLI's output, through the command executor", async () => {
    const run = (signal?: string) =>
      shell("Shipped it. <done>SHIPPED</done>").run(request({ loopId: "claims", completionSignal: signal }));
    expect((await run("<done>SHIPPED</done>")).claim).toEqual({ done: true, text: "SHIPPED" });
    expect((await run()).claim).toEqual({ done: false });
  });

  it("a model's JSON field, through the LLM executor", async () => {
    const agent = createLlmAgent(
      llmAgentSchema.parse({ kind: "llm", baseURL: server.baseURL, model: "gpt-4o-mini" }),
      testDeps(tmp.root, { "env:OPENAI_API_KEY": "sk-claim-0123456789" }),
    );
    server.queue({ text: '{"answer": "42", "claim": {"done": true, "text": "answered"}}' });
    expect((await agent.run(request())).claim).toEqual({ done: true, text: "answered" });
    server.queue({ text: '```json\n{"answer": "41", "done": false}\n```' });
    expect((await agent.run(request())).claim).toEqual({ done: false });
    server.queue({ text: "Here it is. <promise>COMPLETE</promise>" });
    expect((await agent.run(request())).claim).toEqual({ done: true, text: "COMPLETE" });
  });
});

// Claude Code's structured question and its turn-limit failure, through the
// real command executor and the stream fixture, mapped to what the engine
// records: the question text, and a distinct failure kind.
import { afterAll, describe, expect, it } from "vitest";
import { errorFailureKind } from "../engine";
import { createCommandAgent } from "./command.executor";
import { commandAgentSchema } from "./command.schema";
import { fixture, request, tempRoot, testDeps } from "./fixtures/harness";

const tmp = tempRoot();
afterAll(() => tmp.cleanup());

const claude = () =>
  createCommandAgent(
    commandAgentSchema.parse({ kind: "command", preset: "claude-code", argv: [fixture("claude-stream.mjs")] }),
    testDeps(tmp.root),
  );

describe("Claude Code shapes", () => {
  it("an AskUserQuestion tool call is the agent's question", async () => {
    const result = await claude().run(request({ input: "ASK_USER before you start", loopId: "ask" }));
    expect(result.question).toBe("Which database should I migrate?");
    expect(result.toolCalls).toContain("AskUserQuestion");
  });

  it("a run without it has no question", async () => {
    const result = await claude().run(request({ input: "just work", loopId: "plain" }));
    expect(result.question).toBeUndefined();
  });

  it("error_max_turns is its own failure kind, not a crash", async () => {
    const error = await claude()
      .run(request({ input: "hit MAX_TURNS", loopId: "turns" }))
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "agent_reported_error", details: { subtype: "error_max_turns" } });
    expect(errorFailureKind(error)).toBe("max_turns");
  });
});

// Usage limits are read from the agent's own final status only: never from a
// file it read, a tool result, or an earlier message quoting one.
import { afterAll, describe, expect, it } from "vitest";
import { usageLimitSignalOf } from "../engine";
import { claudeCodeParser } from "./claude-code.preset";
import { codexParser } from "./codex.preset";
import { createCommandAgent } from "./command.executor";
import { commandAgentSchema } from "./command.schema";
import { fixture, request, tempRoot, testDeps } from "./fixtures/harness";
import type { StreamParser } from "./stream-parser";

const tmp = tempRoot();
afterAll(() => tmp.cleanup());

function parse(parser: StreamParser, events: object[]) {
  for (const e of events) parser.line(JSON.stringify(e), () => undefined);
  return parser.finish("");
}

const text = (id: string, t: string) => ({
  type: "assistant",
  message: { id, role: "assistant", content: [{ type: "text", text: t }] },
});
const LIMIT = "You've hit your limit · resets 5pm (Europe/Vilnius)";

describe("Claude Code", () => {
  it("reads the limit from the result event of a run that ended in error", () => {
    const run = parse(claudeCodeParser(10_000), [
      text("m1", LIMIT),
      { type: "result", subtype: "success", is_error: true, result: LIMIT },
    ]);
    expect(run.usageLimit).toBe(LIMIT);
  });

  it("reads the final assistant message when no result event came", () => {
    expect(parse(claudeCodeParser(10_000), [text("m1", "Working."), text("m2", LIMIT)]).usageLimit).toBe(LIMIT);
    // An earlier message quoting the limit is not the agent's final word.
    expect(parse(claudeCodeParser(10_000), [text("m1", LIMIT), text("m2", "Still working.")]).usageLimit).toBeNull();
  });

  it("ignores a limit the agent read or quoted in a run that finished normally", () => {
    const run = parse(claudeCodeParser(10_000), [
      { type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: LIMIT }] } },
      text("m1", `The file says "${LIMIT}".`),
      { type: "result", subtype: "success", is_error: false, result: `The file says "${LIMIT}".` },
    ]);
    expect(run.usageLimit).toBeNull();
    expect(run.error).toBeNull();
  });

  it("an error that is not a limit stays an error", () => {
    const run = parse(claudeCodeParser(10_000), [{ type: "result", subtype: "error_max_turns", is_error: true }]);
    expect(run.usageLimit).toBeNull();
    expect(run.error).toMatch(/error_max_turns/);
  });

  it("the command executor turns it into a usage-limit error even though the CLI exited 1", async () => {
    const argv = [process.execPath, fixture("claude-limited.mjs"), `${tmp.root}/acct`, "--limit-calls", "1"];
    const agent = createCommandAgent(
      commandAgentSchema.parse({ kind: "command", preset: "claude-code", argv }),
      testDeps(tmp.root),
    );
    const error = await agent.run(request()).catch((e: unknown) => e);
    expect(usageLimitSignalOf(error)?.message).toMatch(/^Claude AI usage limit reached\|\d{10}$/);
  });
});

describe("Codex", () => {
  const limit = "You've hit your usage limit. Upgrade to Pro or try again in 2 hours 5 minutes.";

  it("reads the limit from the error event the run ended on", () => {
    const run = parse(codexParser(10_000), [
      { type: "thread.started", thread_id: "t" },
      { type: "error", message: limit },
    ]);
    expect(run.usageLimit).toBe(limit);
  });

  it("an error the run recovered from is not a limit", () => {
    const run = parse(codexParser(10_000), [
      { type: "error", message: limit },
      { type: "turn.completed", usage: { input_tokens: 1, output_tokens: 1 } },
    ]);
    expect(run.usageLimit).toBeNull();
  });
});

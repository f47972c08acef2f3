// Every way a Claude Code or Codex run goes wrong, as a real script that
// prints what that CLI prints and exits as it does (test/fixtures), run
// through the real command executor: each maps to its own failure kind, and
// the retry policy tells them apart.
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { iterationDiagnostics, retryVerdict, usageLimitSignalOf, type FailureKind, type RetryAction } from "../engine";
import { createCommandAgent } from "./command.executor";
import { commandAgentSchema } from "./command.schema";
import { request, tempRoot, testDeps } from "./fixtures/harness";

const tmp = tempRoot();
afterAll(() => tmp.cleanup());

const script = (name: string) => fileURLToPath(new URL(`../../test/fixtures/${name}`, import.meta.url));

function agent(preset: "claude-code" | "codex", shape: string) {
  const file = script(preset === "codex" ? "codex-failures.mjs" : "claude-failures.mjs");
  return createCommandAgent(
    commandAgentSchema.parse({ kind: "command", preset, argv: [process.execPath, file, shape], timeoutSeconds: 60 }),
    testDeps(tmp.root),
  );
}

async function failureOf(preset: "claude-code" | "codex", shape: string) {
  const error = await agent(preset, shape)
    .run(request({ loopId: `${preset}-${shape}` }))
    .then(
      () => null,
      (e: unknown) => e as Error & { code?: string; details?: Record<string, unknown> },
    );
  expect(error, `${preset} ${shape} should fail`).not.toBeNull();
  return error!;
}

type Shape = [shape: string, kind: FailureKind, action: RetryAction, message: RegExp];

describe("Claude Code failure shapes", () => {
  it.each<Shape>([
    ["max-turns", "max_turns", "never", /error_max_turns/],
    ["during-execution", "agent_error", "retry", /error_during_execution/],
    ["usage-limit", "usage_limit", "wait", /usage limit: Claude AI usage limit reached\|\d{10}/],
    ["rate-limit", "rate_limit", "wait", /rate limit: API Error: 429/],
    ["overloaded", "rate_limit", "wait", /overloaded_error/],
    ["auth", "agent_error", "never", /Invalid API key/],
    ["no-result", "no_result", "retry", /without a result event/],
    ["garbage", "malformed", "never", /no stream-json event/],
    ["crash", "crash", "retry", /exited with code 2: .*TypeError/s],
    ["signal", "crash", "retry", /killed by SIGTERM/],
  ])("%s -> %s (%s)", async (shape, kind, action, message) => {
    const error = await failureOf("claude-code", shape);
    expect(error.message).toMatch(message);
    expect(retryVerdict(error)).toEqual({ kind, action });
  });

  it("an error result keeps its subtype, exit code and the cost it reported", async () => {
    const error = await failureOf("claude-code", "max-turns");
    expect(error.details).toMatchObject({ subtype: "error_max_turns", exitCode: 1, costUsd: 0.0031 });
  });

  it("a limit carries the agent's own words for the wait", async () => {
    expect(usageLimitSignalOf(await failureOf("claude-code", "usage-limit"))?.message).toMatch(/^Claude AI usage/);
    expect(usageLimitSignalOf(await failureOf("claude-code", "crash"))).toBeNull();
  });

  it("stream lines that are not JSON are counted on a malformed reply", async () => {
    const error = await failureOf("claude-code", "garbage");
    expect(error.details).toMatchObject({
      exitCode: 0,
      unparsedLines: 2,
      unparsedSample: ["Thinking about the task…", "Done, I think."],
    });
    expect(iterationDiagnostics(null, error)).toMatchObject({ exitCode: 0, unparsedLines: 2 });
    expect(iterationDiagnostics(null, error)?.unparsedSample).toHaveLength(2);
  });
});

describe("Codex failure shapes", () => {
  it.each<Shape>([
    ["usage-limit", "usage_limit", "wait", /usage limit: You've hit your usage limit/],
    ["quota", "usage_limit", "wait", /Quota exceeded/],
    ["rate-limit", "rate_limit", "wait", /rate limit: exceeded retry limit, last status: 429/],
    ["turn-failed", "agent_error", "retry", /Codex failed: unexpected status 400/],
    ["context-window", "agent_error", "retry", /context window/],
    ["auth", "agent_error", "never", /401 Unauthorized/],
    ["interrupted", "no_result", "retry", /without turn.completed/],
    ["garbage", "malformed", "never", /no JSONL event/],
    ["crash", "crash", "retry", /exited with code 1: .*trusted directory/s],
  ])("%s -> %s (%s)", async (shape, kind, action, message) => {
    const error = await failureOf("codex", shape);
    expect(error.message).toMatch(message);
    expect(retryVerdict(error)).toEqual({ kind, action });
  });

  it("a turn that completed without a final message is not a failure, but it is noted", async () => {
    const result = await agent("codex", "no-message").run(request({ loopId: "codex-no-message" }));
    expect(result.output).toBe("");
    expect(result.meta?.warnings).toContain("Codex ended its turn without a final message");
  });

  it("an error it recovered from within the turn is not a failure", async () => {
    const result = await agent("codex", "recovered").run(request({ loopId: "codex-recovered" }));
    expect(result.output).toBe("Fixed the parser.");
    expect(result.meta?.errors).toEqual([expect.stringMatching(/^Reconnecting/)]);
  });
});

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AgentError } from "./agent-error";
import { createCommandAgent } from "./command.executor";
import { commandAgentSchema } from "./command.schema";
import { exitsWithin, fixture, request, tempRoot, testDeps } from "./fixtures/harness";

const tmp = tempRoot();
afterAll(() => tmp.cleanup());

const agent = (config: Record<string, unknown>, secrets: Record<string, string> = {}) =>
  createCommandAgent(commandAgentSchema.parse({ kind: "command", ...config }), testDeps(tmp.root, secrets));

async function rejection(promise: Promise<unknown>): Promise<AgentError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AgentError);
  return error as AgentError;
}

describe("command executor", () => {
  it("parses Claude Code stream-json: result text, cost, usage with cache tokens, turns, tool uses", async () => {
    const req = request({ input: "please finish the job", loopId: "claude" });
    const result = await agent({ preset: "claude-code", argv: [fixture("claude-stream.mjs")] }).run(req);
    expect(result.output).toContain("All done.");
    expect(result.claim).toEqual({ done: true, text: "COMPLETE" });
    expect(result.costUsd).toBe(0.0421);
    expect(result.usage).toEqual({ input: 3120, output: 450, cache: 9000 });
    expect(result.toolCalls).toEqual(["Bash", "Edit", "Bash"]);
    expect(result.meta).toMatchObject({
      numTurns: 3,
      sessionId: "sess-1",
      cacheCreationTokens: 3000,
      exitCode: 0,
      costSource: "reported",
    });
    expect(req.events.filter((e) => e.kind === "tool_call").map((e) => (e as { name: string }).name)).toEqual([
      "Bash",
      "Edit",
      "Bash",
    ]);
    expect(req.events.length).toBeGreaterThanOrEqual(5); // one event per stdout line
  });

  it("parses Codex JSONL: final agent message, usage split into cached and fresh, tool items, pricing by model", async () => {
    const result = await agent({ preset: "codex", argv: [fixture("codex-jsonl.mjs")], model: "gpt-5-codex" }).run(
      request({ loopId: "codex" }),
    );
    expect(result.output).toMatch(/^Fixed it for: Make the tests pass/);
    expect(result.claim.done).toBe(true);
    expect(result.usage).toEqual({ input: 315, output: 122, cache: 24448 });
    expect(result.toolCalls).toEqual(["command_execution", "file_change", "mcp:github/search_issues"]);
    expect(result.costUsd).toBeCloseTo((315 * 1.25 + 24448 * 0.125 + 122 * 10) / 1e6, 8);
    expect(result.meta).toMatchObject({
      turns: 1,
      costSource: "priced",
      commands: [{ command: "bash -lc ls", exitCode: 0 }],
    });
  });

  it("kills the whole process group on timeout, grandchildren included", async () => {
    const deps = testDeps(tmp.root);
    const error = await rejection(
      agent({ argv: [fixture("hang-with-grandchild.sh")], timeoutSeconds: 0.5, killGraceMs: 500 }).run(
        request({ loopId: "hang" }),
      ),
    );
    expect(error.code).toBe("timeout");
    expect(error.retryable).toBe(true);
    const ws = await deps.workspaceDir("hang");
    const child = Number(readFileSync(join(ws, "child.pid"), "utf8"));
    const grandchild = Number(readFileSync(join(ws, "grandchild.pid"), "utf8"));
    expect(await exitsWithin(child)).toBe(true);
    expect(await exitsWithin(grandchild)).toBe(true);
  });

  it("follows SIGTERM with SIGKILL when the agent ignores it", async () => {
    const started = Date.now();
    const error = await rejection(
      agent({ argv: [fixture("ignore-sigterm.mjs")], timeoutSeconds: 0.5, killGraceMs: 300 }).run(
        request({ loopId: "stubborn" }),
      ),
    );
    expect(error.details.killedWith).toBe("SIGKILL");
    expect(Date.now() - started).toBeLessThan(5000);
    const pid = Number(readFileSync(join(tmp.root, "stubborn", "stubborn.pid"), "utf8"));
    expect(await exitsWithin(pid)).toBe(true);
  });

  it("kills the group when the operator aborts", async () => {
    const controller = new AbortController();
    const run = agent({ argv: [fixture("hang-with-grandchild.sh")], killGraceMs: 300 }).run(
      request({ loopId: "abort", signal: controller.signal, onProgress: () => controller.abort() }),
    );
    const error = await rejection(run);
    expect(error.code).toBe("aborted");
    expect(error.retryable).toBe(false);
    const grandchild = Number(readFileSync(join(tmp.root, "abort", "grandchild.pid"), "utf8"));
    expect(await exitsWithin(grandchild)).toBe(true);
  });

  it("caps an output flood and marks it truncated, still reading the last line", async () => {
    const req = request({ loopId: "flood" });
    const result = await agent({ argv: [fixture("flood.mjs")], maxOutputBytes: 64 * 1024 }).run(req);
    expect(result.truncated).toBe(true);
    expect(result.output.length).toBeLessThanOrEqual(64 * 1024);
    expect(result.meta?.stdoutBytes).toBeGreaterThan(8_000_000);
    expect(req.events.length).toBeLessThan(20_000); // heartbeats are thinned past the first thousand lines
  });

  it("fails a non-zero exit with the exit code and a scrubbed stderr tail", async () => {
    const error = await rejection(
      agent(
        { argv: [fixture("exit-nonzero.sh")], secrets: [{ name: "AGENT_TOKEN", env: "TEST_AGENT_TOKEN" }] },
        { "env:TEST_AGENT_TOKEN": "sk-very-secret-123" },
      ).run(request({ loopId: "fail" })),
    );
    expect(error.code).toBe("exit_nonzero");
    expect(error.details.exitCode).toBe(3);
    expect(error.message).toContain("exited with code 3");
    expect(error.message).toContain("could not reach the model");
    expect(JSON.stringify(error.details) + error.message).not.toContain("sk-very-secret-123");
  });

  it("decodes invalid UTF-8 to U+FFFD, keeping a character split across writes whole", async () => {
    const result = await agent({ argv: [fixture("bad-bytes.mjs")] }).run(request({ loopId: "bad-bytes" }));
    expect(result.output).toContain("a\uFFFDb\uFFFD(");
    expect(result.output).toContain("😀 done");
    expect(result.output).not.toMatch(/\p{Surrogate}/u);
  });

  it("survives garbage on a JSON stream", async () => {
    const result = await agent({ preset: "claude-code", argv: [fixture("garbage.mjs")] }).run(
      request({ loopId: "garbage" }),
    );
    expect(result.output).toBe("");
    expect(result.costUsd).toBe(0);
    expect(result.usage).toEqual({ input: 0, output: 0, cache: 0 });
    expect(result.meta?.unparsedLines).toBe(4); // the two well-formed but odd objects are tolerated, not counted
    expect(result.meta?.warnings).toContain("The agent reported no token usage");
  });

  it("honours a generic JSON control line and removes it from the answer", async () => {
    const result = await agent({ argv: [fixture("report.sh")] }).run(request({ loopId: "generic" }));
    expect(result.output).toContain("answer for: Make the tests pass");
    expect(result.output).not.toContain('"usage"');
    expect(result.usage).toEqual({ input: 100, output: 20, cache: 0 });
    expect(result.costUsd).toBe(0.0012);
    expect(result.claim).toEqual({ done: true });
    expect(result.toolCalls).toEqual(["edit", "test"]);
  });

  it("passes the prompt as an argument or a file, with only allowlisted env and resolved secrets", async () => {
    const config = {
      argv: [fixture("print-args.mjs"), "--task", "{prompt}", "--file={promptFile}"],
      envAllow: ["PATH"],
      env: { FIXED: "1" },
      secrets: [{ name: "AGENT_TOKEN", secret: "tok" }],
      promptVia: "argument",
      cwd: "sub/dir",
    };
    const result = await agent(config, { "secret:tok": "s3cr3t-value" }).run(
      request({ loopId: "args", input: "do {promptFile} now" }),
    );
    const seen = JSON.parse(result.output.replace("[redacted]", "s3cr3t-value")) as Record<string, unknown>;
    const promptFile = join(tmp.root, "args", ".ralph", "prompt.md");
    expect(seen.args).toEqual(["--task", "do {promptFile} now", `--file=${promptFile}`]);
    expect(seen.file).toBe("do {promptFile} now");
    expect(seen.cwd).toBe(join(tmp.root, "args", "sub", "dir"));
    expect(seen.fixed).toBe("1");
    expect(result.output).not.toContain("s3cr3t-value"); // scrubbed from what the agent printed
    expect(seen.env).toEqual([
      "AGENT_TOKEN",
      "FIXED",
      "PATH",
      "RALPH_AGENT_ID",
      "RALPH_ATTEMPT",
      "RALPH_ITERATION",
      "RALPH_LOOP_ID",
      "RALPH_PROMPT_FILE",
      "RALPH_WORKSPACE",
    ]);
    expect(existsSync(promptFile)).toBe(true);
  });

  it("reports a missing binary as a non-retryable spawn failure", async () => {
    const error = await rejection(agent({ argv: ["/nonexistent/agent-binary"] }).run(request({ loopId: "missing" })));
    expect(error.code).toBe("spawn_failed");
    expect(error.retryable).toBe(false);
  });

  it("rejects a generic preset without a command and paths outside the workspace", () => {
    expect(commandAgentSchema.safeParse({ kind: "command" }).success).toBe(false);
    expect(commandAgentSchema.safeParse({ kind: "command", argv: ["x"], cwd: "../up" }).success).toBe(false);
    expect(commandAgentSchema.safeParse({ kind: "command", preset: "codex" }).success).toBe(true);
  });
});

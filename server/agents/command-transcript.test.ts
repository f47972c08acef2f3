// The command executor keeps Claude Code's and Codex's events for the
// iteration's transcript: on success in meta, on failure in the error's
// details (the engine stores either), scrubbed of the loop's secrets; the live
// view's long lines stay JSON. The agent replays real CLI output
// (test/fixtures/replay-transcript.mjs; captured lines in test/fixtures/transcripts).
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { transcriptOf } from "../../lib/transcript/transcript";
import { AgentError } from "./agent-error";
import { createCommandAgent } from "./command.executor";
import { commandAgentSchema } from "./command.schema";
import { request, tempRoot, testDeps } from "./fixtures/harness";

const tmp = tempRoot();
afterAll(() => tmp.cleanup());
const root = join(__dirname, "../..");
const replay = join(root, "test/fixtures/replay-transcript.mjs");
const fixture = (name: string) => join(root, "test/fixtures/transcripts", `${name}.jsonl`);

function agent(preset: "claude-code" | "codex" | "generic", name: string, env: Record<string, string> = {}) {
  const config = commandAgentSchema.parse({
    kind: "command",
    preset,
    argv: [process.execPath, replay, fixture(name), "0"],
    env,
    secrets: [{ name: "AGENT_TOKEN", secret: "token" }],
  });
  return createCommandAgent(config, testDeps(tmp.root, { "secret:token": "s3cr3t-value-123" }));
}

type Kept = { lines: string[]; skipped: number };

describe("command executor, transcript", () => {
  it("keeps Claude Code's events in meta, deltas of whole messages left out", async () => {
    const result = await agent("claude-code", "claude-code-fix").run(request({ loopId: "t-claude" }));
    const kept = result.meta!.transcript as Kept;
    expect(kept.lines.some((l) => l.includes('"text_delta"'))).toBe(false);
    const entries = transcriptOf(kept.lines).entries;
    expect(entries.filter((e) => e.kind === "tool").map((e) => e.kind === "tool" && `${e.name}: ${e.summary}`)).toEqual(
      ["Bash: npm test", "Read: src/sum.js", "Edit: src/sum.js", "Bash: npm test"],
    );
  });

  it("keeps Codex's events too", async () => {
    const result = await agent("codex", "codex-fix").run(request({ loopId: "t-codex" }));
    expect(transcriptOf((result.meta!.transcript as Kept).lines).format).toBe("codex");
  });

  it("keeps them on a failed run, in the error's details", async () => {
    const failed = await agent("claude-code", "claude-code-fix", { REPLAY_EXIT: "3" })
      .run(request({ loopId: "t-fail" }))
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(failed).toBeInstanceOf(AgentError);
    const kept = (failed as AgentError).details.transcript as Kept;
    expect(transcriptOf(kept.lines).entries.at(-1)).toMatchObject({ kind: "result", ok: true });
  });

  it("scrubs the loop's secrets from what it keeps", async () => {
    const result = await agent("claude-code", "codex-error-item", { REPLAY_SECRET: "s3cr3t-value-123" })
      .run(request({ loopId: "t-secret" }))
      .catch((e: AgentError) => ({ meta: e.details }));
    const lines = (result.meta!.transcript as Kept).lines;
    expect(lines.join("\n")).toContain("token ");
    expect(lines.join("\n")).not.toContain("s3cr3t-value-123");
  });

  it("keeps nothing for other commands (their output is the answer)", async () => {
    const result = await agent("generic", "codex-error-item").run(request({ loopId: "t-generic" }));
    expect(result.meta!.transcript).toBeUndefined();
  });
});

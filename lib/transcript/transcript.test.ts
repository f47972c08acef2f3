// The transcript model against real CLI output (test/fixtures/transcripts: captured from
// Claude Code 2.1.332 and Codex 0.171.0, see their headers), streamed prefixes, cut tails,
// hostile and huge input.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { claudeToolSummary } from "./tool-summary";
import { relPath, unwrapShell } from "./text";
import { CAPS, transcriptOf, type TranscriptEntry } from "./transcript";

const fixture = (name: string) =>
  readFileSync(join(__dirname, "../../test/fixtures/transcripts", `${name}.jsonl`), "utf8")
    .split("\n")
    .filter((l) => l && !l.startsWith("//"));

/** An entry in one short line, for whole-transcript comparisons. */
function brief(e: TranscriptEntry): string {
  switch (e.kind) {
    case "tool":
      return `tool ${e.name}: ${e.summary} [${e.status}]`;
    case "todo":
      return `todo ${e.items.length}`;
    case "result":
      return `result ${e.ok ? "ok" : "failed"}: ${e.text}`;
    default:
      return `${e.kind}: ${e.text.split("\n")[0]!.slice(0, 41)}`;
  }
}

describe("transcriptOf, real CLI output", () => {
  it("reads Claude Code's stream-json (partial messages) as a conversation", () => {
    const t = transcriptOf(fixture("claude-code-fix"));
    expect(t.format).toBe("claude-code");
    expect(t.entries.map(brief)).toEqual([
      "session: Claude Code · 2.1.332 · claude-opus-5-5 ·",
      "retry: API error (529 overloaded): retry 1 of 10",
      "text: I'll start by running the test suite to s",
      "tool Bash: npm test [error]",
      "text: One test fails: `sum(2, 3)` returns `-1`.",
      "tool Read: src/sum.js [ok]",
      "text: The function subtracts instead of adding.",
      "tool Edit: src/sum.js [ok]",
      "text: Running the tests again to confirm.",
      "tool Bash: npm test [ok]",
      "text: Fixed `sum` in `src/sum.js`: it returned ",
      "result ok: Finished",
    ]);
    const result = t.entries.at(-1) as Extract<TranscriptEntry, { kind: "result" }>;
    expect(result.detail).toBe("5 turns · $0.0379 · 5.8 s · 9,000 in · 96 out");
    const bash = t.entries[3] as Extract<TranscriptEntry, { kind: "tool" }>;
    expect(bash.result).toContain("not ok 1 - adds two numbers");
    expect(bash.input).toContain('"command": "npm test"');
    expect(bash.exitCode).toBe(1);
    expect(t.entries[9]).not.toHaveProperty("exitCode");
  });

  it("marks Claude Code's failed tool calls", () => {
    const tools = transcriptOf(fixture("claude-code-tool-errors")).entries.filter((e) => e.kind === "tool");
    expect(tools.map((e) => `${e.name} ${e.status}`)).toEqual(["Bash error", "Read error", "Edit error", "Bash error"]);
    expect(tools[1]!.kind === "tool" && tools[1]!.result).toContain("File does not exist");
  });

  it("reads Codex's exec --json items", () => {
    const t = transcriptOf(fixture("codex-fix"));
    expect(t.format).toBe("codex");
    expect(t.entries.map(brief)).toEqual([
      "session: Codex · thread 01a22053-fdd3-7b70-bdbe-82",
      "reasoning: **Running the tests**",
      "text: I'll run the test suite first to see what",
      "tool Shell: npm test [error]",
      "reasoning: **Reading the failure**",
      "text: `sum(2, 3)` returns `-1`: `sum` subtracts",
      "tool apply_patch: …/repo/src/sum.js [ok]",
      "tool Shell: npm test [ok]",
      "text: Fixed `sum` in `src/sum.js` (it returned ",
      "result ok: Turn completed",
    ]);
    expect(t.entries.at(-1)).toMatchObject({ detail: "12,600 in (6,144 cached) · 480 out (160 reasoning)" });
    expect(t.entries[3]).toMatchObject({ exitCode: 1 });
  });

  it("shows Codex's error items", () => {
    const t = transcriptOf(fixture("codex-error-item"));
    expect(t.entries.map((e) => e.kind)).toEqual(["session", "error", "text", "result"]);
  });
});

describe("transcriptOf, while the turn streams", () => {
  const lines = fixture("claude-code-fix");
  const final = "I'll start by running the test suite to see what fails.";

  it("shows assistant text as it is written, before the message is complete", () => {
    const firstDelta = lines.findIndex((l) => l.includes('"text_delta"'));
    const complete = lines.findIndex((l) => l.startsWith('{"type":"assistant"'));
    let previous = "";
    for (let n = firstDelta + 1; n < complete; n++) {
      const text = transcriptOf(lines.slice(0, n)).entries.find((e) => e.kind === "text");
      expect(text).toMatchObject({ streaming: true });
      const now = text!.kind === "text" ? text!.text : "";
      expect(final.startsWith(now)).toBe(true);
      expect(now.length).toBeGreaterThanOrEqual(previous.length);
      previous = now;
    }
    expect(previous.length).toBeGreaterThan(final.length / 2);
    // The complete message replaces the streamed one under the same key: no duplicate.
    const done = transcriptOf(lines.slice(0, complete + 1)).entries.filter((e) => e.kind === "text");
    expect(done).toEqual([expect.objectContaining({ text: final, streaming: false })]);
  });

  it("names a tool call while its input streams, and summarises it when the block ends", () => {
    const start = lines.findIndex((l) => l.includes('"content_block_start"') && l.includes('"tool_use"'));
    const running = transcriptOf(lines.slice(0, start + 1)).entries.at(-1);
    expect(running).toMatchObject({ kind: "tool", name: "Bash", status: "running", result: null });
    const stop = lines.findIndex((l, i) => i > start && l.includes('"content_block_stop"'));
    expect(transcriptOf(lines.slice(0, stop + 1)).entries.at(-1)).toMatchObject({ summary: "npm test" });
  });

  it("reads every prefix of both CLIs' output without throwing, each entry keyed once", () => {
    for (const name of ["claude-code-fix", "claude-code-tool-errors", "codex-fix"]) {
      const all = fixture(name);
      for (let n = 0; n <= all.length; n++) {
        const keys = transcriptOf(all.slice(0, n)).entries.map((e) => e.key);
        expect(new Set(keys).size).toBe(keys.length);
      }
    }
  });

  it("reads a tail that starts mid-message (the live view keeps the newest lines)", () => {
    const cut = lines.findIndex((l) => l.includes('"text_delta"')) + 3;
    const streaming = transcriptOf(lines.slice(cut, cut + 3));
    expect(streaming.format).toBe("claude-code");
    expect(streaming.entries[0]).toMatchObject({ kind: "text", streaming: true });
    expect(streaming.entries[0]!.kind === "text" && streaming.entries[0]!.text).toMatch(/^…\S/);
    // Its whole form (the assistant line, with the real message id) completes that entry: no second copy.
    const t = transcriptOf(lines.slice(cut));
    expect(t.entries.filter((e) => e.kind === "text" && e.text.includes("running the test suite"))).toEqual([
      expect.objectContaining({ text: final, streaming: false }),
    ]);
    // A result whose call scrolled away still shows, as a tool of unknown name.
    const firstResult = lines.findIndex((l) => l.includes('"tool_result"'));
    const tail = transcriptOf(lines.slice(firstResult));
    expect(tail.entries[0]).toMatchObject({ kind: "tool", name: "tool", status: "error" });
  });
});

describe("transcriptOf, gaps in a live tail", () => {
  const lines = fixture("claude-code-fix");
  const starts = lines.flatMap((l, i) => (l.includes('"message_start"') ? [i] : []));

  it.each([1, 2, 3])("a lost message_start (message %i) does not glue the next message to the previous one", (m) => {
    const gap = lines.filter((_, i) => i !== starts[m]);
    const texts = transcriptOf(gap).entries.flatMap((e) => (e.kind === "text" ? [e.text] : []));
    expect(texts).toEqual(transcriptOf(lines).entries.flatMap((e) => (e.kind === "text" ? [e.text] : [])));
  });

  it("while the next message still streams after the gap, it stands apart", () => {
    const next = starts[1]!;
    const firstDelta = lines.findIndex((l, i) => i > next && l.includes('"text_delta"'));
    const gap = lines.slice(0, firstDelta + 4).filter((_, i) => i !== next && i !== next + 1);
    const texts = transcriptOf(gap).entries.filter((e) => e.kind === "text");
    expect(texts).toHaveLength(2);
    expect(texts[0]).toMatchObject({
      text: "I'll start by running the test suite to see what fails.",
      streaming: false,
    });
    expect(texts[1]).toMatchObject({ streaming: true });
    expect(texts[1]!.kind === "text" && texts[1]!.text).toMatch(/^…One test/);
  });
});

describe("transcriptOf, bad and hostile input", () => {
  it("keeps other commands' output plain", () => {
    expect(transcriptOf(["hello", '{"usage":{"input":1}}', "done"])).toEqual({
      format: "plain",
      entries: [],
      droppedEntries: 0,
    });
  });

  it("shows a line cut short (the live view caps a line at 2,000 characters) as a raw line", () => {
    const lines = fixture("claude-code-fix");
    const long = lines.find((l) => l.startsWith('{"type":"user"'))!;
    const t = transcriptOf([lines[0]!, `${long.slice(0, 120)}…`]);
    expect(t.entries.at(-1)).toMatchObject({ kind: "raw" });
  });

  it("keeps markup as text", () => {
    const html = '<img src=x onerror="alert(1)"><script>alert(2)</script>';
    const t = transcriptOf([
      JSON.stringify({ type: "thread.started", thread_id: "t" }),
      JSON.stringify({ type: "item.completed", item: { id: "1", type: "agent_message", text: html } }),
    ]);
    expect(t.entries[1]).toMatchObject({ kind: "text", text: html });
  });

  it("caps huge results, texts and entry counts", () => {
    const huge = "x".repeat(1_000_000);
    const lines = [JSON.stringify({ type: "thread.started", thread_id: "t" })];
    lines.push(
      JSON.stringify({
        type: "item.completed",
        item: {
          id: "c",
          type: "command_execution",
          command: "cat big",
          aggregated_output: huge,
          exit_code: 0,
          status: "completed",
        },
      }),
      JSON.stringify({ type: "item.completed", item: { id: "m", type: "agent_message", text: huge } }),
    );
    for (let i = 0; i < 1000; i++)
      lines.push(
        JSON.stringify({ type: "item.completed", item: { id: `r${i}`, type: "reasoning", text: `step ${i}` } }),
      );
    const t = transcriptOf(lines);
    expect(t.entries).toHaveLength(CAPS.entries);
    expect(t.droppedEntries).toBe(1003 - CAPS.entries);
    const small = transcriptOf(lines.slice(0, 3));
    const [, cmd, msg] = small.entries;
    expect(cmd!.kind === "tool" && cmd!.result!.length).toBeLessThan(CAPS.result + 100);
    expect(msg!.kind === "text" && msg!.text.length).toBeLessThan(CAPS.text + 100);
  });

  it("survives wrong shapes in known events", () => {
    const odd = [
      { type: "system", subtype: "init", cwd: 5 },
      { type: "assistant", message: { content: "not an array" } },
      { type: "assistant", message: { content: [null, 3, { type: "tool_use" }] } },
      { type: "user", message: { content: [{ type: "tool_result", content: { weird: true } }] } },
      { type: "stream_event", event: { type: "content_block_delta", delta: { type: "text_delta", text: 7 } } },
      { type: "result" },
      { type: "rate_limit_event", rate_limit_info: { status: "rejected", resetsAt: "soon" } },
    ].map((o) => JSON.stringify(o));
    const t = transcriptOf(odd);
    expect(t.format).toBe("claude-code");
    expect(t.entries.map((e) => e.kind)).toContain("result");
    expect(t.entries.find((e) => e.kind === "error")).toMatchObject({ text: "Usage limit (usage): rejected" });
  });
});

describe("one-line summaries", () => {
  it.each([
    ["Bash", { command: "npm test\nnpm run lint" }, "npm test …"],
    ["Edit", { file_path: "/w/src/sum.js", old_string: "a", new_string: "b" }, "src/sum.js"],
    ["Read", { file_path: "/elsewhere/x.js" }, "/elsewhere/x.js"],
    ["Grep", { pattern: "TODO", path: "/w/src" }, "TODO in src"],
    ["WebFetch", { url: "https://example.com" }, "https://example.com"],
    ["TodoWrite", { todos: [{}, {}] }, "2 items"],
    ["AskUserQuestion", { questions: [{ question: "Which database?" }] }, "Which database?"],
    ["mcp__db__query", { sql: "select 1" }, "select 1"],
    ["Bash", { command: "x".repeat(500) }, `${"x".repeat(CAPS.summary - 1)}…`],
  ])("%s %j -> %s", (name, input, expected) => {
    expect(claudeToolSummary(name, input, "/w")).toBe(expected);
  });

  it.each([
    ["/bin/bash -lc 'npm test'", "npm test"],
    ["bash -lc 'echo '\\''hi'\\'''", "echo 'hi'"],
    ['/bin/zsh -lc "ls -la"', "ls -la"],
    ["npm test", "npm test"],
  ])("unwrapShell(%s) -> %s", (command, expected) => {
    expect(unwrapShell(command)).toBe(expected);
  });

  it.each([
    ["/w/src/a.ts", "/w", "src/a.ts"],
    ["/w/src/a.ts", "/w/", "src/a.ts"],
    ["/work/x/repo/src/a.ts", null, "…/repo/src/a.ts"],
    ["src/a.ts", null, "src/a.ts"],
  ])("relPath(%s, %s) -> %s", (path, cwd, expected) => {
    expect(relPath(path, cwd)).toBe(expected);
  });
});

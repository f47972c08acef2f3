// The transcript lines an iteration keeps: bounded, still JSON, and read by
// lib/transcript as the same conversation the whole stream gives.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { transcriptOf } from "../../lib/transcript/transcript";
import { compactLine, TranscriptLines, TRANSCRIPT_LINE_CHARS } from "./transcript-lines";

const fixture = (name: string) =>
  readFileSync(join(__dirname, "../../test/fixtures/transcripts", `${name}.jsonl`), "utf8")
    .split("\n")
    .filter((l) => l && !l.startsWith("//"));

const keep = (lines: string[]) => {
  const kept = new TranscriptLines();
  for (const l of lines) kept.line(l);
  return kept.take();
};

describe("compactLine", () => {
  it("shortens the strings of a long JSON line so it stays JSON", () => {
    const line = JSON.stringify({
      type: "user",
      message: { content: [{ type: "tool_result", content: "x".repeat(50_000) }] },
    });
    const out = compactLine(line, 2_000);
    expect(out.length).toBeLessThanOrEqual(2_000);
    const parsed = JSON.parse(out) as { message: { content: { content: string }[] } };
    expect(parsed.message.content[0]!.content).toMatch(/^x+… \(\d+ more characters\)$/);
  });

  it("shortens long lists too: Claude Code's init line (3,000+ characters) keeps its folder and model", () => {
    const init = fixture("claude-code-fix")[0]!;
    expect(init.length).toBeGreaterThan(3_000);
    const out = compactLine(init, 2_000);
    expect(out.length).toBeLessThanOrEqual(2_000);
    expect(JSON.parse(out)).toMatchObject({
      type: "system",
      subtype: "init",
      cwd: "/work/wt/_scratch-transcript/repo",
    });
    expect(transcriptOf([out]).entries[0]).toMatchObject({ kind: "session" });
  });

  it("cuts other long lines, leaves short ones alone", () => {
    expect(compactLine("a".repeat(5_000), 100)).toBe(`${"a".repeat(100)}…`);
    expect(compactLine("{not json", 5)).toBe("{not …");
    expect(compactLine('{"ok":1}')).toBe('{"ok":1}');
  });

  it("cuts a JSON line whose keys alone are too long", () => {
    const many = JSON.stringify(Object.fromEntries(Array.from({ length: 2_000 }, (_, i) => [`key${i}`, i])));
    expect(compactLine(many, 1_000)).toHaveLength(1_001);
  });
});

describe("TranscriptLines", () => {
  it.each(["claude-code-fix", "claude-code-tool-errors", "codex-fix"])(
    "%s: the kept lines read as the same conversation as the whole stream",
    (name) => {
      const all = fixture(name);
      const kept = keep(all)!;
      expect(kept.skipped).toBe(0);
      expect(transcriptOf(kept.lines)).toEqual(transcriptOf(all));
    },
  );

  it("leaves out Claude Code's deltas once their message arrives whole", () => {
    const all = fixture("claude-code-fix");
    const kept = keep(all)!;
    expect(all.filter((l) => l.includes('"text_delta"')).length).toBeGreaterThan(50);
    expect(kept.lines.filter((l) => l.includes('"text_delta"'))).toHaveLength(0);
    expect(kept.lines.length).toBeLessThan(all.length / 2);
  });

  it("keeps the deltas of a message cut short, so its partial text shows", () => {
    const all = fixture("claude-code-fix");
    const cut = all.findIndex((l) => l.includes('"text_delta"')) + 5;
    const kept = keep(all.slice(0, cut))!;
    const text = transcriptOf(kept.lines).entries.find((e) => e.kind === "text");
    expect(text).toMatchObject({ streaming: true });
    expect(text!.kind === "text" && text!.text.length).toBeGreaterThan(0);
  });

  it("stays within its budget whatever is printed, keeping the first lines and the newest", () => {
    const lines = Array.from({ length: 5_000 }, (_, i) => `line ${i} ${"y".repeat(200)}`);
    lines.push("z".repeat(100_000));
    const kept = keep(lines)!;
    const chars = kept.lines.reduce((n, l) => n + l.length, 0);
    expect(chars).toBeLessThanOrEqual(256_000 + TRANSCRIPT_LINE_CHARS);
    expect(kept.lines[0]).toMatch(/^line 0 /);
    expect(kept.lines.at(-1)).toBe(`${"z".repeat(TRANSCRIPT_LINE_CHARS)}…`);
    expect(kept.skipped).toBe(5_001 - kept.lines.length);
  });

  it("keeps nothing for a silent agent", () => {
    expect(keep([]) ?? null).toBeNull();
    expect(keep(["", "  "]) ?? null).toBeNull();
  });
});

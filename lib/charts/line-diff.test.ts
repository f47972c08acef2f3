import { describe, expect, it } from "vitest";
import { diffLines, withContext } from "./line-diff";

describe("diffLines", () => {
  it("finds added, removed and unchanged lines", () => {
    const diff = diffLines("a\nb\nc\nd", "a\nc\nd\ne");
    expect(diff.lines).toEqual([
      { op: "same", text: "a" },
      { op: "del", text: "b" },
      { op: "same", text: "c" },
      { op: "same", text: "d" },
      { op: "add", text: "e" },
    ]);
    expect([diff.added, diff.removed, diff.coarse]).toEqual([1, 1, false]);
  });

  it("handles empty sides and identical texts", () => {
    expect(diffLines("", "x\ny").lines).toEqual([
      { op: "add", text: "x" },
      { op: "add", text: "y" },
    ]);
    expect(diffLines("x", "").removed).toBe(1);
    expect(diffLines("same\ntext", "same\ntext")).toMatchObject({ added: 0, removed: 0 });
  });

  it("treats CRLF and LF alike", () => {
    expect(diffLines("a\r\nb", "a\nb")).toMatchObject({ added: 0, removed: 0 });
  });

  it("matches the longest common subsequence in the middle", () => {
    const diff = diffLines("x\n1\n2\n3\ny", "x\n2\n9\n3\ny");
    expect(diff.lines.map((l) => `${l.op[0]}${l.text}`)).toEqual(["sx", "d1", "s2", "a9", "s3", "sy"]);
  });

  it("falls back to a coarse replace when the middle is too large", () => {
    // Four lines differ; a cap of two edits gives up on matching them.
    const diff = diffLines("h\na\nb\nt", "h\nc\nd\nt", 2);
    expect(diff.coarse).toBe(true);
    expect(diff.lines.map((l) => `${l.op[0]}${l.text}`)).toEqual(["sh", "da", "db", "ac", "ad", "st"]);
  });

  it("stays fast on long outputs with a small change", () => {
    const long = Array.from({ length: 20_000 }, (_, i) => `line ${i}`);
    const changed = [...long];
    changed[10_000] = "changed";
    const started = performance.now();
    const diff = diffLines(long.join("\n"), changed.join("\n"));
    // Only catches a diff that grows with the square of the line count, on any machine.
    expect(performance.now() - started).toBeLessThan(5_000);
    expect([diff.added, diff.removed]).toEqual([1, 1]);
  });
});

describe("withContext", () => {
  it("keeps changes with context and folds long unchanged runs into gap lines", () => {
    const before = Array.from({ length: 12 }, (_, i) => `l${i}`).join("\n");
    const after = before.replace("l6", "L6");
    const lines = withContext(diffLines(before, after).lines, 1);
    expect(lines.map((l) => (l.skipped ? `…${l.skipped}` : `${l.op[0]}${l.text}`))).toEqual([
      "…5",
      "sl5",
      "dl6",
      "aL6",
      "sl7",
      "…4",
    ]);
  });
});

// A line diff for "what changed since the previous output": jsdiff's Myers
// diff over the lines. Outputs can be long, so the common head and tail are
// cut first, and a middle that differs by more than `maxEdits` lines is shown
// as replaced instead of searched for (jsdiff's maxEditLength).
import { diffArrays } from "diff";

export interface DiffLine {
  op: "same" | "add" | "del";
  text: string;
}

export interface LineDiff {
  lines: DiffLine[];
  added: number;
  removed: number;
  /** True when the middle was too large for a line-by-line match and is shown as replaced. */
  coarse: boolean;
}

const splitLines = (text: string) => (text === "" ? [] : text.replace(/\r\n/g, "\n").split("\n"));

export function diffLines(before: string, after: string, maxEdits = 2_000): LineDiff {
  const a = splitLines(before);
  const b = splitLines(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;

  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const same = (text: string): DiffLine => ({ op: "same", text });
  const lines: DiffLine[] = a.slice(0, head).map(same);
  const changes = diffArrays(midA, midB, { maxEditLength: maxEdits });
  const coarse = changes === undefined;
  if (coarse) {
    lines.push(
      ...midA.map((text): DiffLine => ({ op: "del", text })),
      ...midB.map((text): DiffLine => ({ op: "add", text })),
    );
  } else {
    for (const c of changes) {
      const op = c.added ? "add" : c.removed ? "del" : "same";
      lines.push(...c.value.map((text): DiffLine => ({ op, text })));
    }
  }
  lines.push(...a.slice(a.length - tail).map(same));
  return {
    lines,
    added: lines.filter((l) => l.op === "add").length,
    removed: lines.filter((l) => l.op === "del").length,
    coarse,
  };
}

export interface DiffHunkLine extends DiffLine {
  /** Set on a gap line standing for this many unchanged lines that are not shown. */
  skipped?: number;
}

/** Keeps changes with `context` unchanged lines around them; long unchanged runs become one gap line. */
export function withContext(lines: readonly DiffLine[], context = 3): DiffHunkLine[] {
  const keep = lines.map((l) => l.op !== "same");
  const near = keep.map((_, i) => {
    for (let k = Math.max(0, i - context); k <= Math.min(lines.length - 1, i + context); k++) if (keep[k]) return true;
    return false;
  });
  const out: DiffHunkLine[] = [];
  let skipped = 0;
  lines.forEach((line, i) => {
    if (near[i]) {
      if (skipped) out.push({ op: "same", text: "", skipped });
      skipped = 0;
      out.push(line);
    } else skipped++;
  });
  if (skipped) out.push({ op: "same", text: "", skipped });
  return out;
}

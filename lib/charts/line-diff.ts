// A small line diff (longest common subsequence) for "what changed since the
// previous output". Outputs can be long, so the common head and tail are cut
// first and the quadratic table is only built for what is left, up to a cap.

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

export function diffLines(before: string, after: string, maxCells = 4_000_000): LineDiff {
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
  let coarse = false;
  if ((midA.length + 1) * (midB.length + 1) > maxCells) {
    coarse = true;
    lines.push(
      ...midA.map((text): DiffLine => ({ op: "del", text })),
      ...midB.map((text): DiffLine => ({ op: "add", text })),
    );
  } else {
    lines.push(...lcsDiff(midA, midB));
  }
  lines.push(...a.slice(a.length - tail).map(same));
  return {
    lines,
    added: lines.filter((l) => l.op === "add").length,
    removed: lines.filter((l) => l.op === "del").length,
    coarse,
  };
}

function lcsDiff(a: string[], b: string[]): DiffLine[] {
  const n = a.length;
  const m = b.length;
  // lengths[i][j] = LCS length of a[i..] and b[j..], in one flat array.
  const width = m + 1;
  const lengths = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lengths[i * width + j] =
        a[i] === b[j]
          ? lengths[(i + 1) * width + j + 1]! + 1
          : Math.max(lengths[(i + 1) * width + j]!, lengths[i * width + j + 1]!);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      out.push({ op: "same", text: a[i]! });
      i++;
      j++;
    } else if (lengths[(i + 1) * width + j]! >= lengths[i * width + j + 1]!) {
      out.push({ op: "del", text: a[i++]! });
    } else {
      out.push({ op: "add", text: b[j++]! });
    }
  }
  while (i < n) out.push({ op: "del", text: a[i++]! });
  while (j < m) out.push({ op: "add", text: b[j++]! });
  return out;
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

"use client";
// What changed since the previous iteration's output, line by line.
import { useMemo } from "react";
import { diffLines, withContext } from "@/lib/charts/line-diff";

export function DiffView({ before, after }: { before: string; after: string }) {
  const { lines, added, removed, coarse } = useMemo(() => {
    const diff = diffLines(before, after);
    return { ...diff, lines: withContext(diff.lines, 2) };
  }, [before, after]);
  if (added === 0 && removed === 0)
    return <p className="text-sm text-slate-500 dark:text-slate-400">Identical to the previous output.</p>;
  return (
    <div>
      <p className="mb-1 text-xs text-slate-600 dark:text-slate-400">
        <span className="text-emerald-700 dark:text-emerald-400">+{added}</span> /{" "}
        <span className="text-rose-700 dark:text-rose-400">−{removed}</span> lines
        {coarse ? " (too long to match line by line: shown as replaced)" : ""}
      </p>
      <pre
        className="max-h-80 overflow-auto rounded-lg border border-slate-200 bg-slate-50 p-2 text-xs leading-relaxed dark:border-slate-800 dark:bg-slate-950"
        aria-label="Line diff against the previous output"
      >
        {lines.map((l, i) =>
          l.skipped ? (
            <div key={i} className="select-none text-slate-400">
              ⋯ {l.skipped} unchanged line{l.skipped === 1 ? "" : "s"}
            </div>
          ) : (
            <div
              key={i}
              className={
                l.op === "add"
                  ? "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200"
                  : l.op === "del"
                    ? "bg-rose-100 text-rose-900 line-through decoration-rose-400/60 dark:bg-rose-950 dark:text-rose-200"
                    : "text-slate-700 dark:text-slate-300"
              }
            >
              <span aria-hidden className="mr-2 inline-block w-3 select-none">
                {l.op === "add" ? "+" : l.op === "del" ? "−" : " "}
              </span>
              <span className="sr-only">{l.op === "add" ? "added: " : l.op === "del" ? "removed: " : ""}</span>
              {l.text || " "}
            </div>
          ),
        )}
      </pre>
    </div>
  );
}

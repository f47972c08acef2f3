"use client";
// The code an iteration wrote: its unified diff against the previous
// iteration's snapshot, read on demand (stored capped and redacted), shown a
// file at a time with added and removed lines marked.
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc/client";
import { errorMessage } from "@/components/shared/trpc-errors";
import { ErrorState } from "@/components/ui/error-state";
import { SkeletonRows } from "@/components/ui/skeleton";

/** Splits a unified diff into one block per file, named by its `b/` path. */
export function diffFiles(diff: string): { name: string; lines: string[] }[] {
  const files: { name: string; lines: string[] }[] = [];
  for (const line of diff.split("\n")) {
    const head = /^diff --git a\/(.*) b\/(.*)$/.exec(line);
    if (head) files.push({ name: head[2]!, lines: [] });
    else if (files.length > 0 && line !== "") files.at(-1)!.lines.push(line);
  }
  return files;
}

const lineClass = (line: string) =>
  line.startsWith("+++") || line.startsWith("---")
    ? "text-slate-600 dark:text-slate-400"
    : line.startsWith("+")
      ? "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200"
      : line.startsWith("-")
        ? "bg-rose-100 text-rose-900 dark:bg-rose-950 dark:text-rose-200"
        : line.startsWith("@@")
          ? "text-sky-700 dark:text-sky-400"
          : "text-slate-700 dark:text-slate-300";

export function CodeDiff({ loopId, number }: { loopId: string; number: number }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.loops.iterationDiff.queryOptions({ id: loopId, number }));
  if (query.isPending) return <SkeletonRows rows={2} label="Loading the code diff" />;
  if (query.isError)
    return (
      <ErrorState title="Could not load the diff" message={errorMessage(query.error)} onRetry={() => query.refetch()} />
    );
  const { diff, error, truncated } = query.data;
  if (error) return <p className="text-sm text-rose-700 dark:text-rose-400">Workspace error: {error}</p>;
  if (diff === null) return <p className="text-sm text-slate-500 dark:text-slate-400">No workspace snapshot.</p>;
  return <DiffFileList diff={diff} truncated={truncated} />;
}

/** A unified diff shown a file at a time (the iteration's diff here; a race contender's whole patch too). */
export function DiffFileList({ diff, truncated }: { diff: string; truncated: boolean }) {
  const files = diffFiles(diff);
  if (files.length === 0) return <p className="text-sm text-slate-500 dark:text-slate-400">No files changed.</p>;
  return (
    <div className="space-y-2" data-testid="code-diff">
      {truncated && <p className="text-xs text-amber-700 dark:text-amber-400">The diff was cut at its size cap.</p>}
      {files.map((f) => (
        <details key={f.name} open className="rounded-lg border border-slate-200 dark:border-slate-800">
          <summary className="cursor-pointer px-2 py-1 font-mono text-xs">{f.name}</summary>
          <pre
            aria-label={`Changes to ${f.name}`}
            className="max-h-80 overflow-auto bg-slate-50 p-2 text-xs leading-relaxed dark:bg-slate-950"
          >
            {f.lines.map((l, i) => (
              <div key={i} className={lineClass(l)}>
                {l || " "}
              </div>
            ))}
          </pre>
        </details>
      ))}
    </div>
  );
}

"use client";
// The iterations, newest first, a page at a time. Each page is its own query
// (keyed by the iteration it starts before), so a live refresh re-reads what
// is shown and "Load older" adds a page; iterations are append-only, so pages
// never shift under the reader. Once long, the list is windowed: only the
// rows near the viewport are mounted (the iteration in flight is not in this
// list: its panel stays above it, whatever is scrolled).
import { useQueries } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { useTRPC } from "@/lib/trpc/client";
import { errorMessage } from "@/components/shared/trpc-errors";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { SkeletonRows } from "@/components/ui/skeleton";
import { IterationItem } from "./iteration-item";
import { BadgeLegend } from "./iteration-outcome";
import { PatchDownload } from "./patch-download";
import { WorktreeRemove } from "./worktree-remove";
import { ROW_GAP, useWindowedRows } from "./use-windowed-rows";
import { ITERATION_PAGE } from "./iteration-page";
import { useBeatValue } from "@/components/live/use-beat-value";

export { ITERATION_PAGE };
/** Above this many loaded rows, only those near the viewport are mounted. */
export const WINDOW_AFTER = 60;

export function IterationTimeline({
  loopId,
  handoffs,
  live = false,
}: {
  loopId: string;
  handoffs: Map<number, string>;
  /** The loop is running: its newest page is redrawn on the page's beat (use-beat-value.ts). */
  live?: boolean;
}) {
  const trpc = useTRPC();
  const [cursors, setCursors] = useState<number[]>([]);
  const listRef = useRef<HTMLOListElement>(null);
  const pages = useQueries({
    queries: [undefined, ...cursors].map((beforeNumber) =>
      trpc.loops.iterations.queryOptions({
        id: loopId,
        limit: ITERATION_PAGE,
        ...(beforeNumber ? { beforeNumber } : {}),
      }),
    ),
  });
  // A page that has not been drawn yet is drawn at once; after that, a live loop's new rows wait for the beat.
  const newest = useBeatValue(pages[0]!.data, live) ?? pages[0]!.data;
  const rows = pages.flatMap((p, i) => (i === 0 ? newest : p.data)?.items ?? []);
  const keys = rows.map((r) => `${r.number}:${r.attempt}`);
  const windowed = rows.length > WINDOW_AFTER;
  const shown = useWindowedRows(listRef, keys, windowed);
  const first = pages[0]!;
  if (first.isPending) return <SkeletonRows rows={4} label="Loading iterations" />;
  if (first.isError)
    return (
      <ErrorState
        title="Could not load iterations"
        message={errorMessage(first.error)}
        onRetry={() => first.refetch()}
      />
    );
  if ((newest ?? first.data).items.length === 0) {
    return (
      <EmptyState title="No iterations yet">
        Each iteration appears here as soon as it ends: its input, output, scores, and the agent’s claim beside the
        evidence.
      </EmptyState>
    );
  }
  const last = pages.at(-1)!;
  const failed = pages.find((p) => p.isError);
  // Once a fallback agent ran, every iteration says which agent ran it.
  const withFallback = rows.some((r) => r.agent === "fallback");
  return (
    <div>
      <div className="mb-2 flex justify-end gap-2">
        <WorktreeRemove loopId={loopId} />
        <PatchDownload loopId={loopId} />
      </div>
      <BadgeLegend />
      <ol
        ref={listRef}
        className="flex flex-col"
        style={{ gap: ROW_GAP, paddingTop: shown.padTop, paddingBottom: shown.padBottom }}
        aria-label="Iterations, newest first"
        data-windowed={windowed ? "true" : undefined}
        data-rows={rows.length}
      >
        {rows.slice(shown.start, shown.end).map((it, i) => (
          <IterationItem
            key={keys[shown.start + i]}
            it={it}
            labelAgent={withFallback}
            handoff={handoffs.get(it.number) ?? null}
            posInSet={windowed ? shown.start + i + 1 : undefined}
            setSize={windowed ? rows.length : undefined}
          />
        ))}
      </ol>
      {last.isPending && <SkeletonRows rows={2} label="Loading older iterations" />}
      {failed && (
        <ErrorState
          title="Could not load older iterations"
          message={errorMessage(failed.error)}
          onRetry={() => failed.refetch()}
        />
      )}
      {last.data?.nextBeforeNumber && (
        <Button
          variant="secondary"
          size="sm"
          className="mt-3"
          onClick={() => setCursors((cs) => [...cs, last.data!.nextBeforeNumber!])}
        >
          Load older iterations
        </Button>
      )}
    </div>
  );
}

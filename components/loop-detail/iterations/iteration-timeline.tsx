"use client";
// The iterations, newest first, a page at a time. Each page is its own query
// (keyed by the iteration it starts before), so a live refresh re-reads what
// is shown and "Load older" adds a page; iterations are append-only, so pages
// never shift under the reader. Once long, the list is windowed: only the
// rows near the viewport are mounted (the iteration in flight is not in this
// list: its panel stays above it, whatever is scrolled). The list follows the
// page's one store of the loop: `latest` is the iteration the header shows,
// and a newest page that ends before it is re-read, whatever event was missed
// or came late (it said "No iterations yet" under "Iterations (5)").
import { useQueries } from "@tanstack/react-query";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { useTRPC } from "@/lib/trpc/client";
import { errorMessage } from "@/components/shared/trpc-errors";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { SkeletonRows } from "@/components/ui/skeleton";
import { IterationItem } from "./iteration-item";
import { BadgeLegend } from "./iteration-outcome";
import { PatchDownload } from "./patch-download";
import { WorktreeEnvironment } from "./worktree-environment";
import { ProtectionPanel } from "./protection-panel";
import { WorktreeRemove } from "./worktree-remove";
import { ROW_GAP, useWindowedRows } from "./use-windowed-rows";
import { ITERATION_PAGE } from "./iteration-page";
import { useBeatValue } from "@/components/live/use-beat-value";

export { ITERATION_PAGE };
/** Above this many loaded rows, only those near the viewport are mounted. */
export const WINDOW_AFTER = 60;

/** The mean score of the iteration before row `i` (rows newest first; its last attempt), undefined if not loaded. */
function previousMean(rows: { number: number; meanScore: number | null }[], i: number): number | null | undefined {
  const before = rows.slice(i + 1).find((r) => r.number < rows[i]!.number);
  return before ? before.meanScore : undefined;
}

export function IterationTimeline({
  loopId,
  handoffs,
  live = false,
  latest,
}: {
  loopId: string;
  handoffs: Map<number, string>;
  /** The last finished iteration the page's store of the loop knows (the header's count). */
  latest: number;
  /** The loop is running: its newest page is redrawn on the page's beat (use-beat-value.ts). */
  live?: boolean;
}) {
  const trpc = useTRPC();
  const [cursors, setCursors] = useState<number[]>([]);
  const listRef = useRef<HTMLOListElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  const pages = useQueries({
    queries: [undefined, ...cursors].map((beforeNumber) => ({
      ...trpc.loops.iterations.queryOptions({
        id: loopId,
        limit: ITERATION_PAGE,
        ...(beforeNumber ? { beforeNumber } : {}),
      }),
    })),
  });
  // A page that has not been drawn yet is drawn at once; after that, a live loop's new rows wait for the beat.
  const newest = useBeatValue(pages[0]!.data, live) ?? pages[0]!.data;
  const rows = pages.flatMap((p, i) => (i === 0 ? newest : p.data)?.items ?? []);
  const keys = rows.map((r) => `${r.number}:${r.attempt}`);
  const windowed = rows.length > WINDOW_AFTER;
  const shown = useWindowedRows(listRef, keys, windowed);
  const first = pages[0]!;
  const newestRead = first.data?.items[0]?.number ?? 0;
  const behind = first.isSuccess && !first.isFetching && newestRead < latest;
  const { refetch } = first;
  // Once per count the store moves to: a row that never comes (none recorded) is not asked for in a loop.
  const asked = useRef(0);
  useEffect(() => {
    if (!behind || asked.current >= latest) return;
    asked.current = latest;
    void refetch();
  }, [behind, latest, refetch]);
  // One box in every state, so whether it is in view is known whatever it shows.
  const box = (content: ReactNode) => (
    <div ref={boxRef} data-testid="iteration-timeline">
      {content}
    </div>
  );
  if (first.isPending) return box(<SkeletonRows rows={4} label="Loading iterations" />);
  if (first.isError)
    return box(
      <ErrorState
        title="Could not load iterations"
        message={errorMessage(first.error)}
        onRetry={() => first.refetch()}
      />,
    );
  if ((newest ?? first.data).items.length === 0) {
    return box(
      <>
        <WorktreeEnvironment loopId={loopId} />
        <EmptyState title="No iterations yet">
          Each iteration appears here as soon as it ends: its input, output, scores, and the agent’s claim beside the
          evidence.
        </EmptyState>
      </>,
    );
  }
  const last = pages.at(-1)!;
  const failed = pages.find((p) => p.isError);
  // Once a fallback agent ran, every iteration says which agent ran it.
  const withFallback = rows.some((r) => r.agent === "fallback");
  return box(
    <>
      <WorktreeEnvironment loopId={loopId} />
      <div className="mb-2 flex min-w-0 flex-wrap justify-end gap-2">
        <ProtectionPanel loopId={loopId} />
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
            previousMean={previousMean(rows, shown.start + i)}
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
    </>,
  );
}

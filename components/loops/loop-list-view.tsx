"use client";
// The Loops page: filters in the URL, live rows, alarms, paging, and every
// other state (loading, error, empty, nothing matches).
import Link from "next/link";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useMemo, useRef, useState } from "react";
import { useTRPC } from "@/lib/trpc/client";
import { applyLiveRowToLists, notLiveRow } from "./live-list";
import { LiveIndicator } from "@/components/live/live-indicator";
import { ListStatusAnnouncer } from "@/components/loops/status-announcer";
import { useLiveEvents } from "@/components/live/use-live-events";
import { ServerTime } from "@/components/shared/use-now";
import { errorMessage } from "@/components/shared/trpc-errors";
import { Button, ButtonLink } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { SkeletonRows } from "@/components/ui/skeleton";
import { hasFilters, parseListParams, toListInput, toSearch, type ListParams } from "./list-params";
import { LoopFilters } from "./loop-filters";
import { LoopList } from "./loop-table";
import { StartDemoButton } from "./start-demo-button";
import { SummaryBar, SummaryBarPlaceholder } from "./summary-bar";

export function LoopListView() {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const search = useSearchParams();
  const params = useMemo(() => parseListParams(new URLSearchParams(search.toString())), [search]);
  const list = useQuery({ ...trpc.loops.list.queryOptions(toListInput(params)), placeholderData: keepPreviousData });
  // What the server rendered the time cells with; fixed, so a refetch does not re-render every one of them.
  const [renderedAt] = useState(list.dataUpdatedAt);
  // The browser's midnight, so "spent today" is the operator's day; fixed for the page's life.
  const [dayStartMs] = useState(() => new Date().setHours(0, 0, 0, 0));
  const summary = useQuery(trpc.loops.summary.queryOptions({ dayStartMs }));
  // Viewers see loops but cannot start them: no buttons that would only fail.
  const me = useQuery(trpc.auth.me.queryOptions());
  const canOperate = me.data?.permissions.operateLoops ?? false;
  // Cursors of the pages before this one, so "Previous" works without a server round trip.
  const previous = useRef<(string | null)[]>([]);

  // Rows refresh on any loop's events, coalesced to one refetch a second.
  // Live rows of iterations in flight only move "last output" on their row, without a refetch.
  const queryClient = useQueryClient();
  const live = useLiveEvents({
    refresh: [
      { filters: [trpc.loops.list.pathFilter()], delayMs: 1000, when: notLiveRow },
      { filters: [trpc.loops.summary.pathFilter()], delayMs: 2000, when: notLiveRow },
    ],
    onEvent: (e) => applyLiveRowToLists(queryClient, trpc.loops.list.pathFilter(), e),
  });

  const navigate = useCallback(
    (next: ListParams) => router.replace(`${pathname}${toSearch(next)}`, { scroll: false }),
    [router, pathname],
  );
  const onFilters = useCallback(
    (next: ListParams) => {
      previous.current = [];
      navigate(next);
    },
    [navigate],
  );

  let body;
  if (list.isPending) body = <SkeletonRows rows={4} label="Loading loops" className="h-14" />;
  else if (list.isError)
    body = (
      <ErrorState title="Could not load loops" message={errorMessage(list.error)} onRetry={() => list.refetch()} />
    );
  else if (list.data.items.length === 0 && !hasFilters(params) && !params.cursor) {
    body = (
      <EmptyState title="No loops yet" action={canOperate ? <StartDemoButton /> : undefined}>
        A Ralph loop gives an agent one goal and runs it again and again in a fresh context, scores every attempt, and
        stops only when the evidence says the goal is met, or a budget or limit says stop. Start a demo loop (no keys
        needed) to watch one converge live, or{" "}
        <Link href="/loops/new" className="underline">
          configure your own
        </Link>
        .
      </EmptyState>
    );
  } else if (list.data.items.length === 0) {
    body = (
      <EmptyState
        title="No loops match these filters"
        action={
          <Button
            variant="secondary"
            onClick={() => onFilters({ ...params, status: [], agentKind: [], text: "", cursor: null })}
          >
            Clear filters
          </Button>
        }
      />
    );
  } else {
    const { items, nextCursor, total } = list.data;
    body = (
      // The time cells render with the list's fetch time until hydrated, as the server did.
      <ServerTime value={renderedAt}>
        <LoopList items={items} />
        <nav
          aria-label="Pages"
          className="mt-3 flex flex-wrap items-center justify-between gap-2 text-sm text-slate-600 dark:text-slate-400"
        >
          <span>
            {total} loop{total === 1 ? "" : "s"}
          </span>
          <div className="flex gap-2">
            {params.cursor && (
              <Button
                variant="secondary"
                size="sm"
                onClick={() => navigate({ ...params, cursor: previous.current.pop() ?? null })}
              >
                Previous
              </Button>
            )}
            {nextCursor && (
              <Button
                variant="secondary"
                size="sm"
                onClick={() => {
                  previous.current.push(params.cursor);
                  navigate({ ...params, cursor: nextCursor });
                }}
              >
                Next
              </Button>
            )}
          </div>
        </nav>
      </ServerTime>
    );
  }

  return (
    <>
      <div className="mb-5 flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Loops</h1>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            Is each loop converging, what does it cost, is it stuck?
          </p>
        </div>
        <div className="flex items-center gap-3">
          <LiveIndicator status={live.status} />
          {canOperate && <ButtonLink href="/loops/new">New loop</ButtonLink>}
        </div>
      </div>
      {!summary.data && (list.data?.total ?? 0) > 0 && <SummaryBarPlaceholder />}
      {summary.data && summary.data.total > 0 && (
        <SummaryBar
          summary={summary.data}
          active={params.status}
          onStatus={(status) =>
            onFilters({
              ...params,
              status: params.status.length === 1 && params.status[0] === status ? [] : [status],
              cursor: null,
            })
          }
        />
      )}
      <LoopFilters params={params} onChange={onFilters} />
      <ListStatusAnnouncer items={list.data?.items} />
      {body}
    </>
  );
}

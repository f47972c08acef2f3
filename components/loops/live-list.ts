// The list's side of the live rows of iterations in flight (see
// components/live-iteration): they move a row's "last output" without a refetch.
import type { QueryClient, QueryFilters } from "@tanstack/react-query";
import type { LoopSummary } from "@/components/shared/api-types";

/** The stream's type for the live rows (server/live-output.ts). */
export const LIVE_EVENT_TYPE = "iteration_live";

export const notLiveRow = (e: { type: string }) => e.type !== LIVE_EVENT_TYPE;

type Streamed = { id: number; type: string; payload: unknown; loopId: string | null };
type ListPage = { items: LoopSummary[] };

/** The list's rows keep their "last output" moving as live rows arrive (every cached page of the list). */
export function applyLiveRowToLists(client: QueryClient, filters: QueryFilters, e: Streamed) {
  if (e.type !== LIVE_EVENT_TYPE || !e.loopId) return;
  const p = e.payload as Partial<NonNullable<LoopSummary["live"]>> | null;
  if (!p || typeof p.iteration !== "number") return;
  const live = {
    iteration: p.iteration,
    phase: String(p.phase),
    outputAt: p.outputAt ?? null,
    heartbeatAt: p.heartbeatAt ?? null,
  };
  client.setQueriesData<ListPage>(filters, (page) =>
    page && page.items.some((l) => l.id === e.loopId)
      ? { ...page, items: page.items.map((l) => (l.id === e.loopId ? { ...l, live } : l)) }
      : page,
  );
}

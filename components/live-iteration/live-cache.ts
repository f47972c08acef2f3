// Streamed live rows go straight into the `loops.live` query's cache: the
// output shows in the frame it arrives, with no refetch per batch.
import type { QueryClient, QueryKey } from "@tanstack/react-query";
import { foldLiveEvent, LIVE_EVENT_TYPE, type LiveView } from "./live-fold";

type Streamed = { id: number; type: string; payload: unknown };

export { notLiveRow } from "@/components/loops/live-list";

/** Folds a live row into the cache (true: the event was a live row and needs nothing else). */
export function applyLiveIterationEvent(client: QueryClient, key: QueryKey, e: Streamed): boolean {
  if (e.type === "iteration_finished") {
    // The iteration row replaces the live view.
    client.setQueryData<LiveView | null>(key, null);
    return false;
  }
  if (e.type !== LIVE_EVENT_TYPE) return false;
  client.setQueryData<LiveView | null>(key, (old) => foldLiveEvent(old, e) ?? null);
  return true;
}

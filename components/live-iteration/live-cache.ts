// Streamed live rows go straight into the `loops.live` query's cache, with no
// refetch per batch. Rows are folded in on the page's next beat (pulse.ts,
// half seconds), all that arrived since together: one redraw of the output
// per beat at most, in the same frame as the clock texts and the iteration's
// other news, instead of one per row. An iteration's end clears the view on
// the same beat.
import type { QueryClient, QueryKey } from "@tanstack/react-query";
import { atNextBeat } from "@/components/shared/pulse";
import { foldLiveEvent, LIVE_EVENT_TYPE, type LiveView } from "./live-fold";

type Streamed = { id: number; type: string; payload: unknown };

export { notLiveRow } from "@/components/loops/live-list";

export class LiveIterationCache {
  private pending: Streamed[] = [];
  /** The view ends before the pending rows (they belong to the next iteration). */
  private reset = false;
  private queued = false;
  private key: QueryKey = [];

  constructor(private readonly client: QueryClient) {}

  /** Takes an event for the live query `key` (true: it was a live row and needs nothing else). */
  apply(key: QueryKey, e: Streamed): boolean {
    if (e.type !== "iteration_finished" && e.type !== LIVE_EVENT_TYPE) return false;
    if (JSON.stringify(key) !== JSON.stringify(this.key)) this.flush();
    this.key = key;
    if (e.type === "iteration_finished") {
      // The iteration row replaces the live view; rows still queued belong to it.
      this.pending = [];
      this.reset = true;
    } else this.pending.push(e);
    if (!this.queued) {
      this.queued = true;
      atNextBeat(() => this.flush());
    }
    return e.type === LIVE_EVENT_TYPE;
  }

  flush() {
    this.queued = false;
    const rows = this.pending;
    const reset = this.reset;
    this.pending = [];
    this.reset = false;
    if (rows.length === 0 && !reset) return;
    this.client.setQueryData<LiveView | null>(
      this.key,
      (old) =>
        rows.reduce<LiveView | null | undefined>((view, row) => foldLiveEvent(view, row), reset ? null : old) ?? null,
    );
  }

  dispose() {
    this.pending = [];
    this.reset = false;
  }
}

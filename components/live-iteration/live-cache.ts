// Streamed live rows go straight into the `loops.live` query's cache, with no
// refetch per batch. Rows are folded in on the page's next beat (pulse.ts,
// half seconds), all that arrived since together: one redraw of the output
// per beat at most, in the same frame as the clock texts and the iteration's
// other news, instead of one per row. An iteration's end clears the view on
// the same beat.
//
// A fetch of `loops.live` that answers after rows were folded in replaces the
// cache with what the server read, which may be older than those rows: the
// cache keeps the current iteration's recent rows and folds them again on top
// of every fetched answer (folding skips rows the answer already holds).
import type { QueryClient, QueryKey } from "@tanstack/react-query";
import { atNextBeat } from "@/components/shared/pulse";
import { foldLiveEvent, LIVE_EVENT_TYPE, type LiveView } from "./live-fold";

type Streamed = { id: number; type: string; payload: unknown };

/** Rows kept to fold again over a fetched answer: more than a beat's worth, fewer than a page holds. */
const KEPT_ROWS = 200;

export { notLiveRow } from "@/components/loops/live-list";

export class LiveIterationCache {
  private pending: Streamed[] = [];
  /** The view ends before the pending rows (they belong to the next iteration). */
  private reset = false;
  private queued = false;
  private key: QueryKey = [];
  private keyText = "[]";
  /** The current iteration's folded rows, newest last (see the header). */
  private recent: Streamed[] = [];
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly client: QueryClient) {}

  /** Watches for fetched answers from the first row on (again after a dispose: React may remount). */
  private watch() {
    this.unsubscribe ??= this.client.getQueryCache().subscribe((event) => {
      // Only a fetched answer (not our own manual writes) can be missing rows.
      if (event.type !== "updated" || event.action.type !== "success" || event.action.manual) return;
      if (this.recent.length === 0 || JSON.stringify(event.query.queryKey) !== this.keyText) return;
      this.write(this.recent, false);
    });
  }

  /** Takes an event for the live query `key` (true: it was a live row and needs nothing else). */
  apply(key: QueryKey, e: Streamed): boolean {
    if (e.type !== "iteration_finished" && e.type !== LIVE_EVENT_TYPE) return false;
    this.watch();
    const keyText = JSON.stringify(key);
    if (keyText !== this.keyText) {
      this.flush();
      this.recent = [];
    }
    this.key = key;
    this.keyText = keyText;
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
    this.recent = [...(reset ? [] : this.recent), ...rows].slice(-KEPT_ROWS);
    this.write(rows, reset);
  }

  private write(rows: Streamed[], reset: boolean) {
    this.client.setQueryData<LiveView | null>(
      this.key,
      (old) =>
        rows.reduce<LiveView | null | undefined>((view, row) => foldLiveEvent(view, row), reset ? null : old) ?? null,
    );
  }

  dispose() {
    this.pending = [];
    this.reset = false;
    this.recent = [];
    this.unsubscribe?.();
    this.unsubscribe = null;
  }
}

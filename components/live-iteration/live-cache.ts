// Streamed live rows go straight into the `loops.live` query's cache, with no
// refetch per batch. Rows that arrive close together (an agent printing a
// burst, a progress line with its output) are folded in together, at most
// once per BATCH_MS: one redraw of the output instead of one per row.
import type { QueryClient, QueryKey } from "@tanstack/react-query";
import { foldLiveEvent, LIVE_EVENT_TYPE, type LiveView } from "./live-fold";

type Streamed = { id: number; type: string; payload: unknown };

export { notLiveRow } from "@/components/loops/live-list";

const BATCH_MS = 200;

export class LiveIterationCache {
  private pending: Streamed[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private key: QueryKey = [];

  constructor(private readonly client: QueryClient) {}

  /** Takes an event for the live query `key` (true: it was a live row and needs nothing else). */
  apply(key: QueryKey, e: Streamed): boolean {
    if (e.type === "iteration_finished") {
      // The iteration row replaces the live view; rows still queued belong to it.
      this.drop();
      this.client.setQueryData<LiveView | null>(key, null);
      return false;
    }
    if (e.type !== LIVE_EVENT_TYPE) return false;
    if (JSON.stringify(key) !== JSON.stringify(this.key)) this.flush();
    this.key = key;
    this.pending.push(e);
    this.timer ??= setTimeout(() => this.flush(), BATCH_MS);
    return true;
  }

  flush() {
    const rows = this.pending;
    this.drop();
    if (rows.length === 0) return;
    this.client.setQueryData<LiveView | null>(
      this.key,
      (old) => rows.reduce<LiveView | null | undefined>((view, row) => foldLiveEvent(view, row), old) ?? null,
    );
  }

  dispose() {
    this.drop();
  }

  private drop() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.pending = [];
  }
}

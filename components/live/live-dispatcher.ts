// Coalesces live events into refetches. Each refresh rule has its own timer:
// the first matching event arms it, later ones ride along, and when it fires
// the rule's queries are invalidated once. If they are still fetching from
// the previous round it waits another period instead of cancelling them, so
// a burst of events (or the replay after a reconnect) never becomes a storm.
import type { QueryClient, QueryFilters } from "@tanstack/react-query";

export interface RefreshRule<E> {
  filters: QueryFilters[];
  delayMs: number;
  /** Only events this accepts make the filters stale (default: every event). */
  when?: (event: E) => boolean;
}

type Client = Pick<QueryClient, "isFetching" | "invalidateQueries">;

export class LiveDispatcher<E> {
  private rules: RefreshRule<E>[] = [];
  private listener: ((event: E) => void) | undefined;
  private readonly timers = new Map<number, ReturnType<typeof setTimeout>>();

  constructor(private readonly client: Client) {}

  configure(rules: RefreshRule<E>[], listener?: (event: E) => void) {
    this.rules = rules;
    this.listener = listener;
  }

  handle(event: E) {
    this.listener?.(event);
    this.rules.forEach((rule, i) => {
      if (!rule.when || rule.when(event)) this.arm(i);
    });
  }

  /**
   * The stream (re)connected. Whatever happened between the page's first
   * fetch and the stream's start was never streamed, so every rule refreshes
   * once; after a reconnect the stream replays what was missed, and this
   * adds at most one more refetch per rule.
   */
  started() {
    this.rules.forEach((_, i) => this.arm(i));
  }

  dispose() {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private arm(index: number) {
    if (this.timers.has(index)) return;
    const fire = () => {
      const rule = this.rules[index];
      if (!rule) return void this.timers.delete(index);
      if (rule.filters.some((f) => this.client.isFetching(f) > 0)) {
        this.timers.set(index, setTimeout(fire, rule.delayMs));
        return;
      }
      this.timers.delete(index);
      for (const f of rule.filters) void this.client.invalidateQueries(f, { cancelRefetch: false });
    };
    this.timers.set(index, setTimeout(fire, this.rules[index]?.delayMs ?? 500));
  }
}

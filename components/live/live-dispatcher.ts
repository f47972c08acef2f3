// Coalesces live events into refetches. Each refresh rule has its own timer:
// the first matching event arms it, later ones ride along, and when it fires
// the rule's queries are invalidated once. If they are still fetching from
// the previous round it waits another period instead of cancelling them, so
// a burst of events (or the replay after a reconnect) never becomes a storm.
// Events the view calls routine (`defer`) wait for the page's next beat
// (pulse.ts) and are handled there together, so what they change is drawn in
// one frame with the clock; any other event first hands over those waiting,
// so the view always sees the events in order.
import { notifyManager, type QueryClient, type QueryFilters } from "@tanstack/react-query";
import { atNextBeat, inBeat } from "@/components/shared/pulse";

let notifyInstalled = false;
/**
 * Query caches written on the beat tell their views in the beat's own task
 * (a microtask) rather than in a timer of their own, which drew a second frame
 * a few ms after the clock's. At any other time: the library's default.
 */
function notifyWithinBeat() {
  if (notifyInstalled || typeof window === "undefined") return;
  notifyInstalled = true;
  notifyManager.setScheduler((notify) => (inBeat() ? queueMicrotask(notify) : setTimeout(notify, 0)));
}

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
  private defer: ((event: E) => boolean) | undefined;
  private waiting: E[] = [];
  private readonly timers = new Map<number, ReturnType<typeof setTimeout>>();

  private skipStart: boolean;

  /** `replaysFirstStart`: the stream's first start resumes after the view's own data (it replays what that missed). */
  constructor(
    private readonly client: Client,
    { replaysFirstStart = false } = {},
  ) {
    this.skipStart = replaysFirstStart;
    notifyWithinBeat();
  }

  configure(rules: RefreshRule<E>[], listener?: (event: E) => void, defer?: (event: E) => boolean) {
    this.rules = rules;
    this.listener = listener;
    this.defer = defer;
  }

  handle(event: E) {
    if (this.defer?.(event)) {
      if (this.waiting.push(event) === 1) atNextBeat(() => this.handOver());
      return;
    }
    this.handOver();
    this.process(event);
  }

  /** The deferred events, in order, with their cache writes notified to the view as one batch. */
  private handOver() {
    if (this.waiting.length === 0) return;
    const events = this.waiting;
    this.waiting = [];
    notifyManager.batch(() => events.forEach((e) => this.process(e)));
  }

  private process(event: E) {
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
    if (this.skipStart) return void (this.skipStart = false);
    this.rules.forEach((_, i) => this.arm(i));
  }

  dispose() {
    this.waiting = [];
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

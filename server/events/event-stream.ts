// A live, resumable read of the event log. The table is the source of truth:
// wake-ups only make the reader look sooner, and a fallback poll finds events
// committed by processes that could not wake us. Each event is delivered once,
// in id order, and the position only moves past ids that are settled (see
// event-frontier.ts), so a resume from any delivered id misses nothing.
import type { Database } from "../db/client";
import { readCommittedEventsAfter, readEventIdsAfter, type StoredLoopEvent } from "../db/events.repo";
import { EventFrontier } from "./event-frontier";
import type { WakeupSource } from "./event-wakeups";

export interface StreamEventsOptions {
  /** Only this loop's events; the position still moves through all ids. */
  loopId?: string;
  /** Deliver events with a larger id. */
  afterId: number;
  signal: AbortSignal;
  wakeups: WakeupSource;
  /** Look even without a wake-up this often (events from unreachable writers). */
  pollIntervalMs?: number;
  /** Wake-ups closer together than this share one read. */
  minPollIntervalMs?: number;
  /** See FrontierOptions; the defaults depend on the provider. */
  gapGraceMs?: number;
  gapMaxHoldMs?: number;
  batchSize?: number;
}

export const STREAM_DEFAULTS = {
  pollIntervalMs: 1_000,
  minPollIntervalMs: 15,
  /**
   * Only for the moment between a transaction drawing an id and getting the
   * transaction id the frontier's snapshot check then waits on (within one
   * INSERT); a hole filled by a commit is released by that commit's wake-up.
   * A permanent hole (a rollback, a live row deleted before it was read: each
   * iteration's end deletes its live rows) holds every stream this long, and
   * at 500 ms it held a control's change in another tab for half a second
   * (issue 31's bench); 100 ms still covers a descheduled writer.
   */
  postgresGapGraceMs: 100,
  gapMaxHoldMs: 10_000,
  batchSize: 500,
} as const;

/** Sleeps until woken, a timeout, or the abort; remembers wake-ups that arrive
 *  while the reader is busy so none is lost between a read and the next sleep. */
class Sleeper {
  private woken = false;
  private onWake: (() => void) | null = null;

  constructor(private readonly signal: AbortSignal) {}

  readonly wake = () => {
    this.woken = true;
    this.onWake?.();
  };

  /** Forget earlier wake-ups: the read about to start covers them. */
  clear() {
    this.woken = false;
  }

  sleep(ms: number, { wakeable }: { wakeable: boolean }): Promise<void> {
    if (this.signal.aborted || (wakeable && this.woken) || ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.signal.removeEventListener("abort", done);
        if (this.onWake === done) this.onWake = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.signal.addEventListener("abort", done, { once: true });
      if (wakeable) this.onWake = done;
    });
  }
}

/** Yields events after `afterId` in id order, forever, until `signal` aborts. */
export async function* streamEvents(
  database: Database,
  options: StreamEventsOptions,
): AsyncGenerator<StoredLoopEvent, void, undefined> {
  const { signal, loopId } = options;
  const pollIntervalMs = options.pollIntervalMs ?? STREAM_DEFAULTS.pollIntervalMs;
  const minPollIntervalMs = options.minPollIntervalMs ?? STREAM_DEFAULTS.minPollIntervalMs;
  const batchSize = options.batchSize ?? STREAM_DEFAULTS.batchSize;
  const frontier = new EventFrontier(options.afterId, {
    // SQLite has one writer and commits in id order: any hole is already final.
    graceMs: options.gapGraceMs ?? (database.kind === "postgresql" ? STREAM_DEFAULTS.postgresGapGraceMs : 0),
    maxHoldMs: options.gapMaxHoldMs ?? STREAM_DEFAULTS.gapMaxHoldMs,
  });
  if (signal.aborted) return;
  const sleeper = new Sleeper(signal);
  const unsubscribe = options.wakeups.subscribe(sleeper.wake);
  let lastReadAt = -Infinity;
  let failures = 0;
  try {
    while (!signal.aborted) {
      await sleeper.sleep(lastReadAt + minPollIntervalMs - performance.now(), { wakeable: false });
      if (signal.aborted) return;
      lastReadAt = performance.now();
      sleeper.clear();

      let events: StoredLoopEvent[];
      let more: boolean;
      let recheckInMs: number | null;
      try {
        const from = frontier.position;
        const window = await readEventIdsAfter(database, from, batchSize);
        const step = frontier.plan(window, performance.now());
        recheckInMs = step.recheckInMs;
        more = window.ids.length === batchSize && recheckInMs === null;
        // Bounded by the id range, never by a smaller limit: a row in a hole we
        // just stepped over may have committed meanwhile and must not be cut off.
        events =
          step.through > from
            ? await readCommittedEventsAfter(database, from, {
                loopId,
                throughId: step.through,
                limit: step.through - from,
              })
            : [];
        frontier.moveTo(step.through);
        failures = 0;
      } catch (error) {
        if (signal.aborted) return;
        // A database blip must not end every browser's stream; back off and retry.
        if (failures++ === 0) console.warn("Event stream read failed; retrying:", error);
        await sleeper.sleep(Math.min(pollIntervalMs * 2 ** failures, 10_000), { wakeable: false });
        continue;
      }

      for (const event of events) {
        if (signal.aborted) return;
        yield event;
      }
      if (!more) await sleeper.sleep(recheckInMs ?? pollIntervalMs, { wakeable: true });
    }
  } finally {
    unsubscribe();
  }
}

// Decides how far a live reader may safely advance through the event id
// sequence. On PostgreSQL ids come from a sequence, so a transaction holding a
// smaller id can commit after one holding a larger id: reading `id > last` and
// jumping to the largest id seen would lose the smaller one forever. The
// frontier only moves through a contiguous run, and steps over a hole only once
// the hole is judged permanent (rolled back, or its rows deleted).
import type { EventIdWindow } from "../db/events.repo";

export interface FrontierOptions {
  /** Minimum time a hole is waited for once seen. 0 on SQLite, whose single
   *  writer commits in id order, so every hole it shows is already permanent. */
  graceMs: number;
  /** Upper bound on waiting for a hole while old transactions are still open,
   *  so one stuck transaction cannot stall every stream forever. */
  maxHoldMs: number;
  /** How often a hole held past its grace is re-examined. */
  recheckMs?: number;
}

export interface FrontierStep {
  /** Every id up to here is delivered or given up on. */
  through: number;
  /** When a hole holds the frontier back: how soon to look again. */
  recheckInMs: number | null;
}

interface Observation {
  /** Largest id seen so far; every absent id below it was a hole from `at` on. */
  maxSeen: number;
  at: number;
  /** Transactions that could still fill those holes have xids below this. */
  xmax: bigint | null;
}

export class EventFrontier {
  private last: number;
  private observations: Observation[] = [];

  constructor(
    afterId: number,
    private readonly options: FrontierOptions,
  ) {
    this.last = afterId;
  }

  get position(): number {
    return this.last;
  }

  /** Where the frontier may move given this window; call moveTo() once the
   *  events up to there are in hand, so a failed read loses nothing. */
  plan(window: EventIdWindow, now: number): FrontierStep {
    const { ids, snapshot } = window;
    const maxSeen = ids.at(-1);
    const known = this.observations.at(-1)?.maxSeen ?? this.last;
    if (maxSeen !== undefined && maxSeen > known) {
      this.observations.push({ maxSeen, at: now, xmax: snapshot?.xmax ?? null });
    }

    let expected = this.last + 1;
    let recheckInMs: number | null = null;
    for (const id of ids) {
      if (id < expected) continue;
      if (id > expected) {
        const wait = this.remainingWait(expected, snapshot, now);
        if (wait !== null) {
          recheckInMs = wait;
          break;
        }
      }
      expected = id + 1;
    }

    return { through: expected - 1, recheckInMs };
  }

  moveTo(through: number) {
    if (through <= this.last) return;
    this.last = through;
    this.observations = this.observations.filter((o) => o.maxSeen > this.last);
  }

  /** plan() and moveTo() in one step. */
  advance(window: EventIdWindow, now: number): FrontierStep {
    const step = this.plan(window, now);
    this.moveTo(step.through);
    return step;
  }

  /** null when the hole starting at `missing` may be stepped over now. */
  private remainingWait(missing: number, snapshot: EventIdWindow["snapshot"], now: number): number | null {
    // The first observation that saw past the hole is when the hole appeared.
    const seen = this.observations.find((o) => o.maxSeen > missing);
    if (!seen) return null;
    const { graceMs, maxHoldMs, recheckMs = 100 } = this.options;
    const held = now - seen.at;
    if (held >= maxHoldMs) return null;
    if (held < graceMs) return Math.max(1, graceMs - held);
    // Past the grace: on PostgreSQL, keep waiting while any transaction that was
    // already running when the hole appeared is still open. Once they have all
    // ended, an id still absent from a later snapshot belonged to a rollback.
    if (seen.xmax === null || snapshot === null || snapshot.xmin >= seen.xmax) return null;
    return Math.max(1, Math.min(recheckMs, maxHoldMs - held));
  }
}

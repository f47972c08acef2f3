/** The usage-limit part of a loop snapshot (see usage-limit.ts); plain data, no imports. */
export interface LimitWait {
  since: number;
  until: number;
  /** The agent's own words about the limit. */
  message: string;
  /** Learned from another loop on the same account, not from this loop's own call. */
  shared: boolean;
  /** The agent gave the reset time; otherwise `until` is a backoff. */
  resetKnown: boolean;
  /** The provider's window (five_hour, seven_day…, primary/secondary) and its use (0-100), when known. */
  window?: string | null;
  usedPercent?: number | null;
}

export interface UsageLimitState {
  /** The wait under way, if any. */
  active: LimitWait | null;
  /** Limited iterations in a row; a working iteration sets it back to 0. */
  recurrences: number;
  /** Start of the current waiting period (limited until an iteration works again). */
  periodSince: number | null;
  /** Waiting periods so far. */
  periods: number;
  /** Time spent waiting, summed over ended waits. */
  waitedMs: number;
  /** "Resume now": shared windows learned before this moment no longer hold this loop. */
  resumedAt: number | null;
  /** The fallback agent runs the iterations until then (policy `fallback`). */
  fallbackUntil: number | null;
  /** Iterations the limit answered: they do not count toward stop.maxIterations. */
  limitedIterations?: number;
}

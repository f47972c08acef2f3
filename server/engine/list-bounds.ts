/**
 * Every list a snapshot carries from one iteration to the next has a bound,
 * so a checkpoint (and a live loop's memory) stays the same size after
 * 10,000 iterations as after 100. The bound is what the list's readers use;
 * anything needed in full is in the append-only iteration rows.
 *
 * | list                         | read by                                   | kept                              |
 * |------------------------------|-------------------------------------------|-----------------------------------|
 * | state.reflectionHistory      | the reflector, the report                 | reflection.maxHistory, ≤ HISTORY_CAP |
 * | state.scoreHistory           | latestScore                               | reflection.maxHistory, ≤ HISTORY_CAP |
 * | verifications                | the verifier ("previous results")         | VERIFICATION_HISTORY              |
 * | ledger.recent                | expected next spend, throttle, trend (≤ 5–10 iterations) | RECENT_RECORDS     |
 * | work.completed / decisions / assumptions / constraints | dedup of reports, the handoff prompt, the checkpoint header | WORK_ITEMS_KEPT |
 *
 * The no-progress detector counts completed items through
 * `progress.completedCount`, a running total, not the kept list's length.
 * An item that dropped out of the kept list looks new when reported again, so
 * an agent re-sending one cumulative list of more than WORK_ITEMS_KEPT items
 * would never look stalled: a report whose items are, as a set, the previous
 * report's adds nothing (`itemsDigest`, kept in `progress.completedDigest`).
 * A restore trims an older checkpoint's longer lists the same way (`boundLists`).
 */

/** Earlier verdicts passed back to the verifier: each carries up to 4000 characters of answer. */
export const VERIFICATION_HISTORY = 10;
/** reflection.maxHistory is the operator's; past this the reflector gains nothing a row does not hold. */
export const HISTORY_CAP = 500;
/** Latest distinct items kept per accumulated work list. */
export const WORK_ITEMS_KEPT = 256;
/**
 * Work lists are trimmed from the front this many items at a time: the
 * checkpoint codec stores a list without iterations as runs of 32 items by
 * index, so dropping whole runs leaves every later run's text, and its
 * stored part, unchanged (dropping one item would shift them all).
 */
export const WORK_TRIM_STEP = 32;

/** Reflections and scores kept for this state. */
export function historyKept(state: { maxHistory: number }): number {
  return Math.min(state.maxHistory, HISTORY_CAP);
}

/** The last `max` items (the same array when it is within bound). */
export function lastItems<T>(items: T[], max: number): T[] {
  return items.length > max ? items.slice(items.length - max) : items;
}

/** Within WORK_ITEMS_KEPT, dropping the oldest items in whole steps of WORK_TRIM_STEP. */
export function boundWorkItems<T>(items: T[]): T[] {
  const over = items.length - WORK_ITEMS_KEPT;
  if (over <= 0) return items;
  return items.slice(Math.ceil(over / WORK_TRIM_STEP) * WORK_TRIM_STEP);
}

/** Distinct items of `kept` then of `reported`, bounded, and how many of `reported` were new. */
export function accumulate(
  kept: string[],
  reported: readonly string[] | undefined,
): { items: string[]; added: number } {
  if (!reported || reported.length === 0) return { items: kept, added: 0 };
  const all = [...new Set([...kept, ...reported])];
  return { items: boundWorkItems(all), added: all.length - new Set(kept).size };
}

/**
 * A report's items as a set, in a few bytes: the count and a 32-bit FNV-1a
 * hash of the distinct items, sorted. Two different sets share a digest once
 * in about four billion; then a new item is missed for one iteration.
 */
export function itemsDigest(items: readonly string[]): string {
  const distinct = [...new Set(items)].sort();
  let hash = 0x811c9dc5;
  for (const item of distinct) {
    for (let i = 0; i < item.length; i++) {
      hash ^= item.charCodeAt(i);
      hash = Math.imul(hash, 0x01000193);
    }
    hash ^= 0xff; // separator: ["ab"] and ["a", "b"] differ
    hash = Math.imul(hash, 0x01000193);
  }
  return `${distinct.length}:${(hash >>> 0).toString(16)}`;
}

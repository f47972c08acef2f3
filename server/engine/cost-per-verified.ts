// Cost per verified task: what a loop, a race, an agent or an account spent (every row of every
// loop: retries, judges and verifiers included, since a loop's cost is the sum of its rows), divided
// by the outcomes that evidence verified (completed: success needs evidence, never the agent's
// claim) or that landed on the target branch. Unverified spend still counts in the numerator: a
// contender that never passes makes its group's verified tasks dearer, not free.

/** One loop's outcome, as the aggregation reads it. */
export interface LoopOutcome {
  costUsd: number;
  /** The loop's row status (completed means the evidence passed). */
  status: string;
  /** It landed through the merge queue (counts as verified whatever its status says). */
  landed?: boolean;
}

export interface CostPerVerified {
  loops: number;
  spendUsd: number;
  verified: number;
  /** spend / verified; null when nothing was verified (the spend bought no verified task yet). */
  costPerVerifiedUsd: number | null;
}

export const isVerifiedOutcome = (o: Pick<LoopOutcome, "status" | "landed">): boolean =>
  o.status === "completed" || o.landed === true;

// Sums in micro-dollars, so adding many small costs does not drift from the stored total.
const micro = (usd: number) => Math.round(usd * 1_000_000);

export function costPerVerified(outcomes: readonly LoopOutcome[]): CostPerVerified {
  let spend = 0;
  let verified = 0;
  for (const o of outcomes) {
    spend += micro(Math.max(0, o.costUsd));
    if (isVerifiedOutcome(o)) verified += 1;
  }
  const spendUsd = spend / 1_000_000;
  return {
    loops: outcomes.length,
    spendUsd,
    verified,
    costPerVerifiedUsd: verified === 0 ? null : spend / verified / 1_000_000,
  };
}

/** The figure per group (race, agent, account, ...): rows whose key is null are left out. */
export function costPerVerifiedBy<T extends LoopOutcome>(
  rows: readonly T[],
  keyOf: (row: T) => string | null,
): ({ key: string } & CostPerVerified)[] {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const key = keyOf(row);
    if (key === null) continue;
    const list = groups.get(key);
    if (list) list.push(row);
    else groups.set(key, [row]);
  }
  return [...groups.entries()]
    .map(([key, list]) => ({ key, ...costPerVerified(list) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

// One job invocation ("slice"): claim a loop, drive it with the engine's own
// `step` from its latest checkpoint until it waits, pauses, halts or the slice
// budget runs out, and store every safe point in one fenced transaction.
// Route handlers, the worker and tests all call this.
import { randomUUID } from "node:crypto";
import { LeaseLostError } from "../db/loop-lease.repo";
import { leaseKeeperOf } from "./lease-keeper";
import { LoopSetupError, SliceRun, type SliceResult } from "./slice-run";
import type { JobRuntime } from "./runtime-deps";

export type { SliceResult };

/**
 * Runs one slice of a loop: claim -> restore -> loop { step -> commit } -> release.
 * `claimedAs` is the lease owner when the caller already claimed the loop (a
 * worker claiming in batches); otherwise the slice claims it and returns at
 * once if another runtime holds it.
 */
export async function runSlice(rt: JobRuntime, loopId: string, claimedAs?: string): Promise<SliceResult> {
  const store = rt.db.loopStore;
  const owner = claimedAs ?? `${rt.instanceId}:${randomUUID()}`;
  const claimAt = new Date(rt.engine.now());
  const claimed = claimedAs
    ? await store.loadClaimed(loopId, claimedAs)
    : await store.claim(loopId, owner, claimAt, rt.settings.leaseMs);
  if (!claimed) return { claimed: false, iterations: 0, outcome: "not_claimable" };

  const keeper = leaseKeeperOf(rt).hold(loopId, owner);
  // The lease runs from the claim's time, not from now (a worker's batch claim is a moment earlier still;
  // the launch fence checks the lease in the database whatever this says).
  if (!claimedAs) keeper.renewedAt = claimAt.getTime();
  const slice = new SliceRun(rt, claimed, owner, keeper);
  try {
    await slice.restore();
    for (;;) {
      const outcome = await slice.step();
      if (!outcome) continue;
      const end = await slice.commit(outcome);
      if (end) return end;
    }
  } catch (error) {
    if (error instanceof LeaseLostError) return slice.leaseLost();
    // A passing fault (database busy, connection reset): the lease expires and
    // the sweeper retries the loop from its checkpoint.
    if (!(error instanceof LoopSetupError)) throw error;
    return await slice.fail(error);
  } finally {
    slice.release();
  }
}

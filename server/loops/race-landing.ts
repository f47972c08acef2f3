// The one boundary through which a race hands its winner to the merge queue (landing.service.ts):
// the queue rebases onto the target's current head, re-runs the loop's full evidence on the result
// and only then lands. Races never merge anything themselves. The target is the race's
// targetBranch, else the queue's default (the branch the repository's checkout has checked out).
import { enqueueLanding } from "./landing.service";
import type { ActingAs, LoopServices } from "./loop-services";

export interface RaceLanding {
  /** The winner is in the merge queue. */
  queued: boolean;
  /** What happened, for the caller and the race's view. */
  note: string;
  /** The queue entry, when queued. */
  entryId?: string;
}

/** Sends the race's winner to the merge queue; a refusal (no branch, no target) is returned, not thrown. */
export async function landRaceWinner(
  svc: LoopServices,
  loopId: string,
  targetBranch: string | null,
  acting: ActingAs,
): Promise<RaceLanding> {
  try {
    const entry = await enqueueLanding(svc, {
      loopId,
      actor: acting.actor,
      reason: acting.reason ? `race winner: ${acting.reason}` : "race winner",
      ...(targetBranch ? { targetBranch } : {}),
    });
    return {
      queued: true,
      entryId: entry.id,
      note: `queued to land onto ${entry.targetBranch}${entry.position ? ` (position ${entry.position})` : ""}`,
    };
  } catch (error) {
    return { queued: false, note: `not queued: ${error instanceof Error ? error.message : String(error)}` };
  }
}

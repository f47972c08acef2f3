// The one boundary through which a race hands its winner to the merge queue (issue 34: the queue
// rebases onto the target's current head, re-runs the loop's full evidence and only then lands).
// Races never merge anything themselves.
import type { ActingAs, LoopServices } from "./loop-services";

export interface RaceLanding {
  /** The winner is in the merge queue. */
  queued: boolean;
  /** What happened, for the race's audit event. */
  note: string;
}

/** Sends the race's winner to the merge queue. */
export async function landRaceWinner(_svc: LoopServices, _loopId: string, _acting: ActingAs): Promise<RaceLanding> {
  return { queued: false, note: "the merge queue is not part of this build yet; land the winner by hand" };
}

/**
 * A restored snapshot's lists within their bounds (list-bounds.ts says which
 * and why).
 */
import { RECENT_RECORDS } from "./budget";
import { boundWorkItems, historyKept, lastItems, VERIFICATION_HISTORY, WORK_ITEMS_KEPT } from "./list-bounds";
import type { LoopSnapshot, WorkState } from "./snapshot";

function boundWork(work: WorkState): WorkState {
  return {
    ...work,
    completed: boundWorkItems(work.completed),
    decisions: boundWorkItems(work.decisions),
    assumptions: boundWorkItems(work.assumptions),
    constraints: boundWorkItems(work.constraints),
  };
}

/**
 * A snapshot with every list within its bound: what a restore hands on, so a
 * checkpoint written before the bounds (or with a larger maxHistory since
 * lowered) continues as a fresh one would. Within bound it is returned as is.
 */
export function boundLists(snapshot: LoopSnapshot): LoopSnapshot {
  const kept = historyKept(snapshot.state);
  const verdicts = Math.min(kept, VERIFICATION_HISTORY);
  const within =
    snapshot.state.reflectionHistory.length <= kept &&
    snapshot.state.scoreHistory.length <= kept &&
    snapshot.verifications.length <= verdicts &&
    snapshot.ledger.recent.length <= RECENT_RECORDS &&
    [snapshot.work.completed, snapshot.work.decisions, snapshot.work.assumptions, snapshot.work.constraints].every(
      (items) => items.length <= WORK_ITEMS_KEPT,
    );
  if (within) return snapshot;
  return {
    ...snapshot,
    state: {
      ...snapshot.state,
      reflectionHistory: lastItems(snapshot.state.reflectionHistory, kept),
      scoreHistory: lastItems(snapshot.state.scoreHistory, kept),
    },
    verifications: lastItems(snapshot.verifications, verdicts),
    ledger: { ...snapshot.ledger, recent: lastItems(snapshot.ledger.recent, RECENT_RECORDS) },
    work: boundWork(snapshot.work),
  };
}

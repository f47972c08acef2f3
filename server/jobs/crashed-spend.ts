// A crashed attempt's reported spend is stored on its interrupted row, but
// the checkpoint the loop resumes from predates it: fold it into the
// snapshot's ledger and counters before the iteration runs again, so budgets
// and totals count it (and the next commit stores it).
import { recordConsumption, recordSpend, type LoopSnapshot } from "../engine";

export interface CrashedSpend {
  input: number;
  output: number;
  cache: number;
  costUsd: number;
}

export function withCrashedSpend(
  snapshot: LoopSnapshot,
  spend: CrashedSpend,
  where: { iteration: number; attempt: number; agentId: string; at: number },
): LoopSnapshot {
  const tokens = spend.input + spend.output + spend.cache;
  if (tokens === 0 && spend.costUsd === 0) return snapshot;
  return {
    ...snapshot,
    state: recordSpend(snapshot.state, { tokens, cost: spend.costUsd }),
    ledger: recordConsumption(snapshot.ledger, { ...where, ...spend, toolCalls: 0 }),
  };
}

// Why a waiting loop waits, when it is its budget: the engine throttles every
// iteration from `throttleAt` of the budget (enforce mode), and the page said
// a bare "waiting" with an ETA in milliseconds. The facts the page states it
// in words with (the budget's own rule decides, not a second reading of it).
import { checkBudget, type LoopSnapshot } from "../engine";

export interface BudgetThrottle {
  usedFraction: number;
  costUsd: number;
  /** 0 when the budget is in tokens only. */
  maxCostUsd: number;
  tokens: number;
  maxTokens: number;
  throttleAt: number;
  denyAt: number;
  /** When the current wait ends (ms since the epoch). */
  untilMs: number;
}

export function budgetThrottleOf(status: string, snapshot: LoopSnapshot | null): BudgetThrottle | null {
  if (!snapshot || status !== "waiting" || snapshot.ledger.throttledUntil === null) return null;
  const budget = snapshot.config.budget;
  const check = checkBudget(snapshot.ledger, budget);
  if (check.action !== "THROTTLE") return null;
  const { costUsd, tokens } = snapshot.ledger.totals;
  return {
    usedFraction: check.usedFraction,
    costUsd,
    maxCostUsd: budget.maxCostUsd,
    tokens,
    maxTokens: budget.maxTokens,
    throttleAt: budget.throttleAt,
    denyAt: budget.denyAt,
    untilMs: snapshot.ledger.throttledUntil,
  };
}

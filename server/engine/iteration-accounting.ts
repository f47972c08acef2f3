/**
 * After Run/Analyze/Verify/Learn: fold one iteration's outcome into the
 * loop's counters (OB state, CD ledger, breaker, health, work, progress).
 * Pure; the events it implies are appended to `log`.
 */
import { recordConsumption, type BudgetLedger, type ConsumptionRecord } from "./budget";
import { breakerOnFailure, breakerOnSuccess, type BreakerState } from "./circuit-breaker";
import type { EventLog } from "./events";
import { classifyHealth, healthOnRunEnd, type HealthSnapshot } from "./health";
import { madeProgress, mergeWorkCounted } from "./learn-plan";
import { itemsDigest } from "./list-bounds";
import * as ls from "./loop-state";
import type { AgentProgressReport, TokenUsage } from "./ports";
import type { LoopSnapshot, WorkState } from "./snapshot";
import type { IterationStatus } from "./stop-types";
import { ENGINE } from "./transitions";

export interface Spend {
  tokens: TokenUsage;
  costUsd: number;
  ledger: BudgetLedger;
}

export function accountSpend(ledger: BudgetLedger, records: readonly ConsumptionRecord[]): Spend {
  const tokens = { input: 0, output: 0, cache: 0 };
  let costUsd = 0;
  let next = ledger;
  for (const record of records) {
    tokens.input += record.input;
    tokens.output += record.output;
    tokens.cache += record.cache;
    costUsd += record.costUsd;
    next = recordConsumption(next, record);
  }
  return { tokens, costUsd, ledger: next };
}

export function accountSteps(
  state: ls.LoopState,
  status: IterationStatus,
  scores: Record<string, number>,
  spend: Spend,
): ls.LoopState {
  const usage = { tokens: spend.tokens.input + spend.tokens.output + spend.tokens.cache, cost: spend.costUsd };
  const scored = Object.keys(scores).length > 0 ? ls.recordScore(state, scores) : state;
  if (status === "succeeded") return ls.recordSuccess(scored, usage);
  // Neither tells anything about the agent's work: spend only.
  if (status === "interrupted" || status === "rate_limited") return ls.recordSpend(scored, usage);
  return ls.recordFailure(scored, usage);
}

/** The breaker guards the agent: only agent errors count; a validator failure is a working agent. */
export function accountBreaker(
  snapshot: LoopSnapshot,
  status: IterationStatus,
  error: string | null,
  now: number,
  log: EventLog,
): BreakerState {
  const before = snapshot.breaker;
  const after =
    status === "error"
      ? breakerOnFailure(before, snapshot.config.health.breaker, now)
      : status === "interrupted" || status === "rate_limited"
        ? before
        : breakerOnSuccess(before);
  if (after.status !== before.status) {
    const reason = status === "error" ? `agent error: ${error}` : "agent call succeeded";
    const body = { type: "breaker_changed" as const, from: before.status, to: after.status };
    log.push(snapshot.state.iteration + 1, ENGINE, reason, body);
  }
  return after;
}

export function accountHealth(
  snapshot: LoopSnapshot,
  duringRun: HealthSnapshot,
  status: IterationStatus,
  now: number,
  log: EventLog,
): HealthSnapshot {
  const ended = healthOnRunEnd(duringRun, status, now);
  const health = { ...ended, state: classifyHealth(ended, snapshot.config.health, now) };
  if (health.state !== duringRun.state) {
    log.push(snapshot.state.iteration + 1, ENGINE, "iteration ended", {
      type: "health_changed",
      from: duringRun.state,
      to: health.state,
    });
  }
  return health;
}

export function accountProgress(
  snapshot: LoopSnapshot,
  report: AgentProgressReport | undefined,
  status: IterationStatus,
  meanScore: number | null,
  evidenceComplete: boolean | null,
): { work: WorkState; progress: LoopSnapshot["progress"]; progressed: boolean } {
  const { work, completedAdded } = mergeWorkCounted(snapshot.work, report);
  const previous = snapshot.progress;
  // The same set again adds nothing, even items the bounded list no longer holds (list-bounds.ts).
  const digest = report?.completedItems?.length ? itemsDigest(report.completedItems) : previous.completedDigest;
  const repeated = digest !== undefined && digest === previous.completedDigest;
  const completedCount = previous.completedCount + (repeated ? 0 : completedAdded);
  const progressed = madeProgress({ snapshot, status, completedCount, meanScore, evidenceComplete });
  // An interrupted iteration says nothing about progress either way.
  const stalled = previous.iterationsWithoutProgress;
  const without = progressed ? 0 : status === "interrupted" || status === "rate_limited" ? stalled : stalled + 1;
  const best = previous.bestMeanScore;
  const bestMeanScore = meanScore === null ? best : best === null ? meanScore : Math.max(best, meanScore);
  const progress = { iterationsWithoutProgress: without, bestMeanScore, completedCount };
  return { work, progressed, progress: digest === undefined ? progress : { ...progress, completedDigest: digest } };
}

/**
 * The end-of-run result: OB's RalphResult fields plus CD's report object.
 */
import {
  efficiency,
  forecastBudget,
  type BudgetForecast,
  type ConsumptionTotals,
  type EfficiencyMetrics,
} from "./budget";
import type { Checkpoint } from "./checkpoint";
import type { IterationRecord } from "./iteration-record";
import { successRate, type LoopState, type ReflectionEntry } from "./loop-state";
import { remainingIterations, type LoopSnapshot } from "./snapshot";
import { isFailure, isSuccess, type LoopStatus, type StopType } from "./stop-types";

export interface LoopReport {
  loopId: string;
  goal: string;
  status: LoopStatus;
  stopType: StopType;
  reason: string;
  success: boolean;
  failure: boolean;
  iterations: number;
  successRate: number;
  startedAt: number;
  finishedAt: number;
  durationMs: number;
  totals: ConsumptionTotals;
  costUsd: number;
  tokens: number;
  bestScore: number | null;
  finalMeanScore: number | null;
  efficiency: EfficiencyMetrics;
  forecast: BudgetForecast;
}

export interface LoopResult {
  output: string;
  stopType: StopType;
  reason: string;
  iterations: number;
  /** Scores of the last iteration. */
  scores: Record<string, number>;
  /** Serialized LoopState (OB). */
  state: LoopState;
  reflections: ReflectionEntry[];
  report: LoopReport;
  snapshot: LoopSnapshot;
  records: IterationRecord[];
  lastCheckpoint: Checkpoint | null;
}

export function buildReport(snapshot: LoopSnapshot, now: number): LoopReport {
  const stopType = snapshot.halt?.stopType ?? "none";
  const finishedAt = snapshot.halt?.at ?? now;
  const totals = snapshot.ledger.totals;
  return {
    loopId: snapshot.loopId,
    goal: snapshot.goal,
    status: snapshot.status,
    stopType,
    reason: snapshot.halt?.reason ?? "",
    success: isSuccess(stopType),
    failure: isFailure(stopType),
    iterations: snapshot.state.iteration,
    successRate: successRate(snapshot.state),
    startedAt: snapshot.state.startTime,
    finishedAt,
    durationMs: finishedAt - snapshot.state.startTime,
    totals,
    costUsd: totals.costUsd,
    tokens: totals.tokens,
    bestScore: snapshot.progress.bestMeanScore,
    finalMeanScore: snapshot.last.meanScore,
    efficiency: efficiency(totals),
    forecast: forecastBudget(snapshot.ledger, snapshot.config.budget, remainingIterations(snapshot)),
  };
}

export function buildResult(
  snapshot: LoopSnapshot,
  records: IterationRecord[],
  lastCheckpoint: Checkpoint | null,
  now: number,
): LoopResult {
  const report = buildReport(snapshot, now);
  return {
    output: snapshot.last.output,
    stopType: report.stopType,
    reason: report.reason,
    iterations: snapshot.state.iteration,
    scores: snapshot.last.scores,
    state: JSON.parse(JSON.stringify(snapshot.state)) as LoopState,
    reflections: snapshot.state.reflectionHistory,
    report,
    snapshot,
    records,
    lastCheckpoint,
  };
}

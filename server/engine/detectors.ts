/**
 * Pluggable stop detectors (OB) evaluated in CD's priority order. Each one
 * configured with 0 is really off. Termination priority: an operator kill or
 * terminate beats everything (it halts before detectors run); then failures
 * (breaker, health, consecutive failures); then evidence of success, which
 * beats the budget, cost, iteration, time and no-progress limits reached in
 * the same iteration.
 */
import { budgetUsed, costCeiling, costOvershoot } from "./budget";
import type { LoopConfig } from "./config.schema";
import { isHealthFailure } from "./health";
import { elapsed, type LoopState } from "./loop-state";
import type { LoopSnapshot } from "./snapshot";
import type { StopType } from "./stop-types";

export interface StopDecision {
  shouldStop: boolean;
  stopType: StopType;
  reason: string;
  metadata: Record<string, unknown>;
}

export interface DetectorContext {
  snapshot: LoopSnapshot;
  state: LoopState;
  config: LoopConfig;
  now: number;
}

export interface StopDetector {
  readonly name: string;
  check(ctx: DetectorContext): StopDecision;
}

export const CONTINUE: StopDecision = Object.freeze({
  shouldStop: false,
  stopType: "none",
  reason: "",
  metadata: {},
}) as StopDecision;

const stop = (stopType: StopType, reason: string, metadata: Record<string, unknown> = {}): StopDecision => ({
  shouldStop: true,
  stopType,
  reason,
  metadata,
});

const detector = (name: string, check: (ctx: DetectorContext) => StopDecision): StopDetector => ({ name, check });

export const circuitBreakerDetector = detector("circuit_breaker", ({ snapshot }) =>
  snapshot.breaker.status === "open" && snapshot.breaker.trialFailed
    ? stop("circuit_breaker_open", "Too many failures: circuit breaker tripped again after its cooldown", {
        trips: snapshot.breaker.trips,
      })
    : CONTINUE,
);

export const healthFailureDetector = detector("health_failure", ({ snapshot }) =>
  isHealthFailure(snapshot.health.state)
    ? stop("health_failure", `Agent health state: ${snapshot.health.state}`, { state: snapshot.health.state })
    : CONTINUE,
);

export const consecutiveFailureDetector = detector("consecutive_failures", ({ state, config }) => {
  const max = config.stop.maxConsecutiveFailures;
  return max > 0 && state.consecutiveFailures >= max
    ? stop("max_consecutive_failures", `${state.consecutiveFailures} consecutive failures`, { max })
    : CONTINUE;
});

export const budgetDetector = detector("budget", ({ snapshot, config }) => {
  const used = budgetUsed(snapshot.ledger.totals, config.budget);
  if (config.budget.mode !== "enforce" || used === null || used < config.budget.denyAt) return CONTINUE;
  // Spend past the budget is said plainly, with how far over and which iteration took it there.
  const { ledger } = snapshot;
  const over = costOvershoot({ spent: ledger.totals.costUsd, limit: config.budget.maxCostUsd, ledger, what: "budget" });
  return stop("budget_exhausted", `${(used * 100).toFixed(1)}% of the budget used${over ? ` (${over.text})` : ""}`, {
    usedFraction: used,
    ...(over ? { overshootUsd: over.overshootUsd } : {}),
  });
});

/**
 * The cost limit holds before the fact: the loop stops once the spend so far
 * plus the next iteration's expected cost would pass it (see costCeiling),
 * and says by how much when an iteration took it over anyway.
 */
export const costLimitDetector = detector("cost_limit", ({ snapshot, state, config }) => {
  const max = config.stop.maxCost;
  const hit = costCeiling({ spent: state.cumulativeCost, limit: max, ledger: snapshot.ledger, what: "cost limit" });
  return hit ? stop("max_cost", hit.reason, { max, overshootUsd: hit.overshootUsd }) : CONTINUE;
});

export const maxIterationDetector = detector("max_iterations", ({ snapshot, state, config }) => {
  const max = config.stop.maxIterations;
  // Iterations the provider's usage limit answered do not use up the allowance.
  const limited = snapshot.usageLimit?.limitedIterations ?? 0;
  const counted = state.iteration - limited;
  // Said in counted iterations: "Iteration 7 >= 6 max" read as a loop that overran its limit.
  const uncounted = limited > 0 ? ` (${limited} more stopped by a usage limit, not counted)` : "";
  return counted >= max ? stop("max_iterations", `${counted} of ${max} iterations run${uncounted}`, { max }) : CONTINUE;
});

export const timeoutDetector = detector("timeout", ({ state, config, now }) => {
  const limit = config.stop.timeout;
  const seconds = elapsed(state, now);
  return limit > 0 && seconds >= limit
    ? stop("timeout", `${seconds.toFixed(0)}s >= ${limit}s wall-clock limit`, { limit, elapsed: seconds })
    : CONTINUE;
});

export const noProgressDetector = detector("no_progress", ({ snapshot, config }) => {
  const limit = config.stop.noProgressIterations;
  const count = snapshot.progress.iterationsWithoutProgress;
  return limit > 0 && count >= limit
    ? stop("no_progress", `No progress in the last ${count} iterations`, { limit })
    : CONTINUE;
});

/** Evidence rules shared by both success detectors: a claim can be required, never suffices. */
function claimAllowsSuccess(snapshot: LoopSnapshot, config: LoopConfig): boolean {
  return !config.completion.requireClaim || snapshot.last.claim?.done === true;
}

export const scoreThresholdDetector = detector("score_threshold", ({ snapshot, config }) => {
  const threshold = config.stop.scoreThreshold;
  const mean = snapshot.last.meanScore;
  return threshold > 0 && mean !== null && mean >= threshold && claimAllowsSuccess(snapshot, config)
    ? stop("score_threshold", `Mean score ${mean.toFixed(3)} >= ${threshold}`, { mean, threshold })
    : CONTINUE;
});

export const completionDetector = detector("completion", ({ snapshot, config }) =>
  snapshot.last.evidenceComplete === true && claimAllowsSuccess(snapshot, config)
    ? stop("completion", "Evidence shows the goal is achieved", { claim: snapshot.last.claim?.done ?? false })
    : CONTINUE,
);

export class CompositeDetector implements StopDetector {
  readonly name = "composite";
  private readonly detectors: StopDetector[];

  constructor(detectors: readonly StopDetector[] = []) {
    this.detectors = [...detectors];
  }

  add(detector: StopDetector): this {
    this.detectors.push(detector);
    return this;
  }

  get size(): number {
    return this.detectors.length;
  }

  names(): string[] {
    return this.detectors.map((d) => d.name);
  }

  check(ctx: DetectorContext): StopDecision {
    for (const d of this.detectors) {
      const decision = d.check(ctx);
      if (decision.shouldStop) return decision;
    }
    return CONTINUE;
  }
}

/** Failures, then OB's success detectors, then CD's limits (budget covering both budget forms). */
export function createDefaultDetectors(): CompositeDetector {
  return new CompositeDetector([
    circuitBreakerDetector,
    healthFailureDetector,
    consecutiveFailureDetector,
    scoreThresholdDetector,
    completionDetector,
    budgetDetector,
    costLimitDetector,
    maxIterationDetector,
    timeoutDetector,
    noProgressDetector,
  ]);
}

export function detectorContext(snapshot: LoopSnapshot, now: number): DetectorContext {
  return { snapshot, state: snapshot.state, config: snapshot.config, now };
}

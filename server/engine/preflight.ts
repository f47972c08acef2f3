/**
 * The safe point before an iteration: apply stored controls, settle an
 * approval deadline, respect pause, breaker cooldown, budget and pacing, and
 * re-check the limits (they may have changed). Pure: given the same snapshot,
 * controls and clock it always answers the same.
 */
import { checkBudget } from "./budget";
import { breakerTick } from "./circuit-breaker";
import type { ControlAck, ControlRequest } from "./control-commands";
import { applyControls, type ControlApplication } from "./controls";
import { standingDecision, pacingWait, type PreflightDecision } from "./decision";
import {
  circuitBreakerDetector,
  CompositeDetector,
  consecutiveFailureDetector,
  costLimitDetector,
  detectorContext,
  healthFailureDetector,
  maxIterationDetector,
  noProgressDetector,
  timeoutDetector,
} from "./detectors";
import type { EngineEvent } from "./events";
import { expireGate } from "./gates";
import type { Deps } from "./ports";
import type { LoopSnapshot } from "./snapshot";
import { ENGINE, haltLoop, setStatus, stamp } from "./transitions";
import { usageLimitPreflight } from "./usage-limit";

export interface Preflight {
  snapshot: LoopSnapshot;
  decision: PreflightDecision;
  acks: ControlAck[];
  events: EngineEvent[];
}

/** Limits only: success detectors speak once, in the Halt phase, about fresh evidence. */
export const preflightDetectors = new CompositeDetector([
  circuitBreakerDetector,
  healthFailureDetector,
  consecutiveFailureDetector,
  costLimitDetector,
  maxIterationDetector,
  timeoutDetector,
  noProgressDetector,
]);

/**
 * The control half of a safe point: apply the requests, then settle an
 * approval deadline (a paused loop's deadline waits until it is resumed).
 * A service may call this on an idle loop to apply controls at once.
 */
export function applySafePointControls(
  snapshot: LoopSnapshot,
  controls: readonly ControlRequest[],
  now: number,
): ControlApplication {
  const applied = applyControls(snapshot, controls, now);
  const next = applied.snapshot.pause === null ? expireGate(applied.snapshot, now, applied.events) : applied.snapshot;
  return { ...applied, snapshot: next };
}

export function beforeIteration(
  snapshot: LoopSnapshot,
  controls: readonly ControlRequest[],
  deps: Pick<Deps, "now">,
): Preflight {
  const now = deps.now();
  const applied = applySafePointControls(snapshot, controls, now);
  const checked = preflight(applied.snapshot, now);
  return { ...checked, acks: applied.acks, events: [...applied.events, ...checked.events] };
}

/** The rest of the safe point: standing decisions, limits, breaker, budget, pacing. */
export function preflight(
  snapshot: LoopSnapshot,
  now: number,
): { snapshot: LoopSnapshot; decision: PreflightDecision; events: EngineEvent[] } {
  const events: EngineEvent[] = [];
  let next = snapshot;
  const done = (decision: PreflightDecision) => ({ snapshot: next, decision, events });

  // The wall clock (stop.timeout) starts when the loop first runs, not when it was queued.
  if (next.state.iteration === 0 && next.halt === null) next = { ...next, state: { ...next.state, startTime: now } };
  const standing = standingDecision(next);
  if (standing?.kind === "pause" && next.status !== "paused" && next.status !== "needs_attention") {
    next = setStatus(next, "paused", now, next.pause!.by, standing.reason, events);
  }
  if (standing?.kind === "await_answer" && next.status !== "needs_attention") {
    next = setStatus(next, "needs_attention", now, ENGINE, `the agent asked: ${standing.question}`, events);
  }
  if (standing?.kind === "await_approval" && next.status !== "awaiting_approval") {
    next = setStatus(next, "awaiting_approval", now, ENGINE, next.gate!.reason, events);
  }
  if (standing) return done(standing);

  const limit = preflightDetectors.check(detectorContext(next, now));
  if (limit.shouldStop) {
    next = haltLoop(next, limit.stopType, limit.reason, ENGINE, now, events);
    return done({ kind: "halt", stopType: limit.stopType, reason: limit.reason });
  }

  const limited = usageLimitPreflight(next, now, events);
  next = limited.snapshot;
  if (limited.decision) return done(limited.decision);

  const breaker = breakerTick(next.breaker, next.config.health.breaker, now);
  if (breaker.status !== next.breaker.status) {
    const body = { type: "breaker_changed" as const, from: next.breaker.status, to: breaker.status };
    events.push(stamp(next, now, ENGINE, "cooldown elapsed: one trial allowed", body));
    next = { ...next, breaker };
  }
  if (next.breaker.status === "open" && next.breaker.openedAt !== null) {
    const untilMs = next.breaker.openedAt + next.config.health.breaker.cooldown * 1000;
    return done({ kind: "wait", untilMs, reason: "breaker_cooldown", detail: "circuit breaker open" });
  }

  const budget = checkBudget(next.ledger, next.config.budget);
  if (budget.action === "DENY") {
    next = haltLoop(next, "budget_exhausted", budget.reason, ENGINE, now, events);
    return done({ kind: "halt", stopType: "budget_exhausted", reason: budget.reason });
  }
  if (budget.action === "THROTTLE") {
    const until = next.ledger.throttledUntil;
    if (until === null) {
      const untilMs = now + budget.delayMs;
      // Crossing the throttle threshold is an alert in enforce mode too, once per crossing
      // (throttles count up while it holds and go back to 0 when the budget allows again).
      if (next.ledger.throttles === 0) {
        const { costUsd } = next.ledger.totals;
        const { maxCostUsd } = next.config.budget;
        const alert = { type: "budget_alert" as const, action: budget.action, usedFraction: budget.usedFraction };
        events.push(stamp(next, now, ENGINE, budget.reason, { ...alert, costUsd, maxCostUsd }));
      }
      const body = { type: "throttled" as const, delayMs: budget.delayMs, usedFraction: budget.usedFraction };
      events.push(stamp(next, now, ENGINE, budget.reason, body));
      next = { ...next, ledger: { ...next.ledger, throttles: next.ledger.throttles + 1, throttledUntil: untilMs } };
      return done({ kind: "wait", untilMs, reason: "throttle", detail: budget.reason });
    }
    if (now < until) return done({ kind: "wait", untilMs: until, reason: "throttle", detail: budget.reason });
  } else if (next.ledger.throttles > 0) {
    next = { ...next, ledger: { ...next.ledger, throttles: 0 } };
  }

  const pacing = pacingWait(next, now);
  if (pacing) return done(pacing);

  if (budget.action === "ALERT_ONLY") {
    const body = { type: "budget_alert" as const, action: budget.action, usedFraction: budget.usedFraction };
    events.push(stamp(next, now, ENGINE, budget.reason, body));
  }
  if (next.status === "initializing") {
    events.push(stamp(next, now, ENGINE, "first iteration", { type: "loop_started", goal: next.goal }));
  }
  next = setStatus(next, "running", now, ENGINE, "iteration starting", events);
  return done({ kind: "run" });
}

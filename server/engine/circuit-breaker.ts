/**
 * CD's circuit breaker as a pure state machine over agent errors:
 * closed --N failures--> open --cooldown--> half_open (one trial)
 * half_open --success--> closed, half_open --failure--> open (trialFailed).
 * The loop waits out a first opening; a failed trial is what halts it.
 */
import type { BreakerStatus } from "./vocabulary";

export interface BreakerConfig {
  failureThreshold: number;
  /** Seconds. */
  cooldown: number;
}

export interface BreakerState {
  status: BreakerStatus;
  /** Consecutive failures while closed. */
  failures: number;
  openedAt: number | null;
  /** The last half-open trial failed: the fault persisted through a cooldown. */
  trialFailed: boolean;
  trips: number;
}

export function createBreaker(): BreakerState {
  return { status: "closed", failures: 0, openedAt: null, trialFailed: false, trips: 0 };
}

export function breakerOnFailure(state: BreakerState, config: BreakerConfig, now: number): BreakerState {
  if (state.status === "half_open") {
    return { ...state, status: "open", openedAt: now, trialFailed: true, trips: state.trips + 1 };
  }
  if (state.status === "open") return state;
  const failures = state.failures + 1;
  if (failures >= config.failureThreshold) {
    return { ...state, status: "open", failures, openedAt: now, trips: state.trips + 1 };
  }
  return { ...state, failures };
}

export function breakerOnSuccess(state: BreakerState): BreakerState {
  return { ...state, status: "closed", failures: 0, openedAt: null, trialFailed: false };
}

export function breakerCooldownEnd(state: BreakerState, config: BreakerConfig): number | null {
  return state.status === "open" && state.openedAt !== null ? state.openedAt + config.cooldown * 1000 : null;
}

/** Moves an open breaker to half_open once its cooldown has passed. */
export function breakerTick(state: BreakerState, config: BreakerConfig, now: number): BreakerState {
  const end = breakerCooldownEnd(state, config);
  return end !== null && now >= end ? { ...state, status: "half_open" } : state;
}

/** Whether an agent call may go ahead now. */
export function breakerAllows(state: BreakerState): boolean {
  return state.status !== "open";
}

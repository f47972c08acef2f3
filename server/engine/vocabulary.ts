/**
 * Small closed vocabularies shared by ports, events, snapshots and the UI.
 * Kept in one dependency-free file so adapters can import them without
 * pulling in engine logic.
 */
export const healthStates = ["healthy", "degraded", "stuck", "failing", "terminated"] as const;
export type HealthState = (typeof healthStates)[number];

/** A stored health read back as the vocabulary; a value the code never writes is a bug, said loudly. */
export function asHealthState(stored: string): HealthState {
  if ((healthStates as readonly string[]).includes(stored)) return stored as HealthState;
  throw new Error(`unknown health state in storage: ${JSON.stringify(stored)}`);
}

export const interventionLevels = ["nudge", "escalate", "terminate"] as const;
export type InterventionLevel = (typeof interventionLevels)[number];

export const breakerStates = ["closed", "open", "half_open"] as const;
export type BreakerStatus = (typeof breakerStates)[number];

export const handoffTriggers = [
  "explicit_request",
  "context_threshold",
  "error_threshold",
  "token_budget",
  "phase_complete",
] as const;
export type HandoffTrigger = (typeof handoffTriggers)[number];

export const budgetActions = ["ALLOW", "THROTTLE", "DENY", "ALERT_ONLY"] as const;
export type BudgetAction = (typeof budgetActions)[number];

export const executionPhases = ["PLANNING", "IMPLEMENTING", "TESTING", "REVIEWING", "HANDOFF", "COMPLETE"] as const;
export type ExecutionPhase = (typeof executionPhases)[number];

export const gateKinds = ["completion", "budget", "periodic"] as const;
export type GateKind = (typeof gateKinds)[number];

export const gateDecisions = ["approve", "reject", "request_changes", "terminate"] as const;
export type GateDecision = (typeof gateDecisions)[number];

/**
 * One vocabulary for why a loop stopped. OB and CD name the same outcomes
 * differently; each outcome has exactly one canonical value here and the
 * other names survive only as aliases, so stored rows never disagree.
 */
export const stopTypes = [
  "none",
  "completion",
  "score_threshold",
  "max_iterations",
  "timeout",
  "max_cost",
  "budget_exhausted",
  "max_consecutive_failures",
  "no_progress",
  "usage_limit",
  "health_failure",
  "circuit_breaker_open",
  "explicit_stop",
  "user_interrupted",
  "system_error",
  "cancelled",
  // A race's contender stopped because another contender won (server/loops/race-settle.service.ts).
  "race_lost",
] as const;

export type StopType = (typeof stopTypes)[number];

/** Non-canonical names from the seed designs, mapped to the value we store. */
export const stopTypeAliases = {
  goal_achieved: "completion",
  max_duration: "timeout",
  consecutive_errors: "max_consecutive_failures",
} as const satisfies Record<string, StopType>;

export type StopTypeAlias = keyof typeof stopTypeAliases;

export function isStopType(value: string): value is StopType {
  return (stopTypes as readonly string[]).includes(value);
}

/** Accepts canonical names and aliases; unknown names are rejected, not guessed. */
export function normalizeStopType(value: string): StopType {
  if (isStopType(value)) return value;
  if (Object.hasOwn(stopTypeAliases, value)) return stopTypeAliases[value as StopTypeAlias];
  throw new Error(`Unknown stop type: ${value}`);
}

export type StopOutcome = "success" | "failure" | "limit" | "operator" | "superseded" | "cancelled" | "none";

/** The exhaustive switch: adding a stop type fails compilation until classified. */
export function stopOutcome(stopType: StopType): StopOutcome {
  switch (stopType) {
    case "none":
      return "none";
    case "completion":
    case "score_threshold":
      return "success";
    case "max_consecutive_failures":
    case "system_error":
    case "health_failure":
    case "circuit_breaker_open":
      return "failure";
    case "max_iterations":
    case "timeout":
    case "max_cost":
    case "budget_exhausted":
    case "no_progress":
    case "usage_limit":
      return "limit";
    case "explicit_stop":
    case "user_interrupted":
      return "operator";
    case "race_lost":
      return "superseded";
    case "cancelled":
      return "cancelled";
    default:
      return assertNever(stopType);
  }
}

export function isSuccess(stopType: StopType): boolean {
  return stopOutcome(stopType) === "success";
}

export function isFailure(stopType: StopType): boolean {
  return stopOutcome(stopType) === "failure";
}

export function assertNever(value: never): never {
  throw new Error(`Unexpected value: ${String(value)}`);
}

/** Loop lifecycle statuses shown by the UI. */
export const loopStatuses = [
  "initializing",
  "running",
  "waiting",
  "waiting_for_limit",
  "needs_attention",
  "paused",
  "awaiting_approval",
  "completed",
  "failed",
  "stopped",
  "cancelled",
] as const;
export type LoopStatus = (typeof loopStatuses)[number];

/**
 * The one vocabulary of a loop's status from the row to the browser: the
 * engine's lifecycle plus the runtime's "draft" (never started) and "queued"
 * (waiting for a slot), and "interrupting", which is never stored: it is shown
 * while an interrupt or kill waits for the running iteration's safe point.
 * The API sends it as this enum and the browser keys its maps by it, so a new
 * status fails to compile until every map handles it.
 */
export const loopRowStatuses = ["draft", "queued", ...loopStatuses, "interrupting"] as const;
export type LoopRowStatus = (typeof loopRowStatuses)[number];

/** A stored status read back as the vocabulary; a value the code never writes is a bug, said loudly. */
export function asLoopRowStatus(stored: string): LoopRowStatus {
  if ((loopRowStatuses as readonly string[]).includes(stored)) return stored as LoopRowStatus;
  throw new Error(`unknown loop status in storage: ${JSON.stringify(stored)}`);
}

/** A stored stop type read back as the vocabulary (null: the loop has not stopped). */
export function asStopType(stored: string | null): StopType | null {
  if (stored === null || (stopTypes as readonly string[]).includes(stored)) return stored as StopType | null;
  throw new Error(`unknown stop type in storage: ${JSON.stringify(stored)}`);
}

export const terminalStatuses: readonly LoopStatus[] = ["completed", "failed", "stopped", "cancelled"];

export function isTerminalStatus(status: LoopStatus): boolean {
  return terminalStatuses.includes(status);
}

/** Final status for a halted loop: limits and operator stops are "stopped", not failures. */
export function statusForStop(stopType: StopType): LoopStatus {
  switch (stopOutcome(stopType)) {
    case "success":
      return "completed";
    case "failure":
      return "failed";
    case "cancelled":
      return "cancelled";
    default:
      return "stopped";
  }
}

/** `rate_limited`: the provider's usage limit answered; not a failure, not progress (see usage-limit.ts). */
export const iterationStatuses = ["succeeded", "failed", "interrupted", "error", "rate_limited"] as const;
export type IterationStatus = (typeof iterationStatuses)[number];

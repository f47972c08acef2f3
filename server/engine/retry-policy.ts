/**
 * What the run phase does after a failed attempt, by failure kind. The kinds
 * come from the adapters' error codes (failure-kind.ts), so the policy reads
 * the same words the timeline shows:
 *
 *   kind          action   why
 *   timeout       retry    a slow or hung call may pass next time
 *   crash         retry    a crashed CLI may start cleanly (unless the adapter says not: spawn failed)
 *   agent_error   retry    Claude Code error_during_execution, a Codex turn.failed: often transient
 *   no_result     retry    the stream was cut before its result: the run did not finish
 *   error         retry    anything else the adapter did not rule out
 *   rate_limit    wait     with the provider's signal: the loop waits in waiting_for_limit
 *                          (usage-limit.ts backs off); without one: retried here with a longer
 *                          exponential backoff than other errors
 *   usage_limit   wait     the plan's quota: only its reset helps (waiting_for_limit)
 *   malformed     never    the reply is not the CLI's protocol: the same call gives the same reply
 *   max_turns     never    the turn budget is spent; the next iteration starts from the evidence
 *   interrupted   never    an operator kill or a cancel
 *
 * An adapter's `retryable: false` (a bad key, a refused request) always wins.
 */
import { errorFailureKind, type FailureKind } from "./failure-kind";
import { AgentRunError, usageLimitSignalOf } from "./agent-run-error";
import { exponentialBackoff, type RetryStrategy } from "./retry";

export type RetryAction = "retry" | "wait" | "never";

export const retryActions: Partial<Record<FailureKind, RetryAction>> = {
  timeout: "retry",
  crash: "retry",
  agent_error: "retry",
  no_result: "retry",
  error: "retry",
  rate_limit: "wait",
  usage_limit: "wait",
  malformed: "never",
  max_turns: "never",
  interrupted: "never",
};

export interface RetryVerdict {
  kind: FailureKind;
  /** retry: another attempt now (after backoff); wait: the loop waits for the limit; never: the iteration fails. */
  action: RetryAction;
}

export function retryVerdict(error: unknown): RetryVerdict {
  const kind = errorFailureKind(error);
  if (error instanceof AgentRunError && usageLimitSignalOf(error) !== null) return { kind, action: "wait" };
  let action = retryActions[kind] ?? "retry";
  // A rate limit without a reset signal cannot be waited for: it is retried here, with a longer backoff.
  if (action === "wait") action = "retry";
  if (error instanceof AgentRunError && error.details.retryable === false && action === "retry") action = "never";
  return { kind, action };
}

/** Floor and ceiling (ms) of the backoff before retrying a rate limit that came without a reset time. */
export const RATE_LIMIT_BACKOFF = { minMs: 5_000, maxMs: 120_000 } as const;

/**
 * The delay before the next attempt: the loop's strategy, except that a limit
 * that came without a reset signal backs off exponentially from at least RATE_LIMIT_BACKOFF.minMs, and
 * never less than the configured strategy would wait.
 */
export function retryDelayMs(
  kind: FailureKind,
  attempt: number,
  random: () => number,
  strategy: RetryStrategy,
): number {
  const configured = Math.max(0, strategy(attempt, random));
  if (kind !== "rate_limit" && kind !== "usage_limit") return configured;
  const limited = exponentialBackoff(RATE_LIMIT_BACKOFF.minMs, RATE_LIMIT_BACKOFF.maxMs)(attempt, random);
  return Math.max(configured, limited);
}

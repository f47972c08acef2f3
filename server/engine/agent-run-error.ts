/**
 * The errors adapters throw, read by the run phase and the retry policy.
 * Kept apart from run-phase.ts so the retry policy can read them without a cycle.
 */
import type { TokenUsage } from "./ports";
import type { UsageLimitSignal } from "./usage-limit-time";

/** Adapters throw this to report spend on a failed call, or to mark an error as not worth retrying. */
export class AgentRunError extends Error {
  constructor(
    message: string,
    readonly details: {
      usage?: TokenUsage;
      costUsd?: number;
      /** The tool calls the agent made before it failed or was stopped: a killed attempt keeps them. */
      toolCalls?: string[];
      retryable?: boolean;
      /** The agent's own result says the provider's usage limit was hit: no retry, the loop waits. */
      usageLimit?: UsageLimitSignal;
    } = {},
  ) {
    super(message);
    this.name = "AgentRunError";
  }
}

export class AgentTimeoutError extends Error {
  constructor(readonly ms: number) {
    super(`Agent call timed out after ${ms / 1000}s`);
    this.name = "AgentTimeoutError";
  }
}

/** The usage-limit signal an adapter attached to its error, if any. */
export function usageLimitSignalOf(error: unknown): UsageLimitSignal | null {
  if (!(error instanceof AgentRunError)) return null;
  const signal = error.details.usageLimit;
  return signal && typeof signal.message === "string" ? signal : null;
}

/**
 * The one error type adapters throw. It is the engine's AgentRunError, whose
 * `details.retryable === false` is what the run phase's `shouldRetry` reads:
 * transient trouble (timeouts, 429, 5xx, a crashed CLI) may succeed on
 * another attempt; configuration mistakes, 4xx rejections and operator kills
 * never will.
 */
import type { TokenUsage } from "../engine";
import { AgentRunError } from "../engine";

export type AgentErrorCode =
  | "aborted"
  | "timeout"
  | "spawn_failed"
  | "exit_nonzero"
  | "agent_reported_error"
  | "rate_limited"
  | "usage_limit"
  | "provider_unavailable"
  | "provider_rejected"
  | "network"
  | "bad_reply"
  | "no_result"
  | "config"
  | "ssrf_refused"
  | "demo_failure";

export class AgentError extends AgentRunError {
  readonly retryable: boolean;
  readonly code: AgentErrorCode;
  /** The engine's fields (retryable, usage, costUsd) plus plain diagnostic data, already scrubbed of secrets. */
  declare readonly details: AgentRunError["details"] & Record<string, unknown>;

  constructor(
    code: AgentErrorCode,
    message: string,
    options: {
      retryable: boolean;
      details?: Record<string, unknown>;
      usage?: TokenUsage;
      costUsd?: number;
      toolCalls?: string[];
      cause?: unknown;
    },
  ) {
    super(message, {
      ...options.details,
      retryable: options.retryable,
      ...(options.usage ? { usage: options.usage } : {}),
      ...(options.costUsd !== undefined ? { costUsd: options.costUsd } : {}),
      ...(options.toolCalls ? { toolCalls: options.toolCalls } : {}),
    });
    this.name = "AgentError";
    this.code = code;
    this.retryable = options.retryable;
    if (options.cause !== undefined) Object.defineProperty(this, "cause", { value: options.cause, enumerable: false });
  }
}

export const abortedError = (what: string) =>
  new AgentError("aborted", `${what} was stopped by the operator`, { retryable: false });

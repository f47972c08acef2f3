/**
 * SF's retry engine: execute -> validate -> retry with the failures so far ->
 * repeat, until success, exhaustion or cancellation. It knows nothing about
 * agents; the iteration uses it to retry agent errors.
 */
import type { LoopConfig } from "./config.schema";
import type { Deps, ValidationResult } from "./ports";
import { errorMessage } from "./validators";

/** Delay (ms) to wait after failed attempt number `attempt` (1-based). */
export type RetryStrategy = (attempt: number, random: () => number) => number;

/**
 * Doubling from minMs with upward jitter: attempt n waits within
 * [base, 2*base] where base = minMs * 2^(n-1), never above maxMs, so the
 * configured minimum and maximum both hold.
 */
export function exponentialBackoff(minMs: number, maxMs: number): RetryStrategy {
  return (attempt, random) => {
    const base = minMs * 2 ** Math.max(0, attempt - 1);
    return Math.min(maxMs, Math.round(base + random() * base));
  };
}

export function fixedDelay(ms: number): RetryStrategy {
  return () => ms;
}

export function noDelay(): RetryStrategy {
  return () => 0;
}

export function retryStrategyFromConfig(retry: LoopConfig["retry"]): RetryStrategy {
  switch (retry.strategy) {
    case "exponential":
      return exponentialBackoff(retry.minDelayMs, retry.maxDelayMs);
    case "fixed":
      return fixedDelay(retry.fixedDelayMs);
    case "none":
      return noDelay();
  }
}

export interface RetryFailure {
  attempt: number;
  kind: "error" | "invalid";
  message: string;
  errors: string[];
}

export interface RetryEvent {
  attempt: number;
  nextAttempt: number;
  delayMs: number;
  failure: RetryFailure;
}

export interface RalphOptions<T> {
  executor: (ctx: { attempt: number; failures: readonly RetryFailure[]; signal: AbortSignal }) => Promise<T>;
  validator?: (value: T) => ValidationResult;
  maxAttempts: number;
  retryStrategy?: RetryStrategy;
  onRetry?: (event: RetryEvent) => void | Promise<void>;
  /** Errors for which another attempt is pointless (e.g. an operator kill). */
  shouldRetry?: (error: unknown) => boolean;
  /** The delay after a thrown error, when it depends on the error (a rate limit backs off longer). */
  delayFor?: (error: unknown, attempt: number, random: () => number) => number;
  signal?: AbortSignal;
  sleep: Deps["sleep"];
  random: Deps["random"];
}

export type RalphResult<T> =
  | { status: "success"; result: T; attempts: number; failures: RetryFailure[] }
  | { status: "exhausted"; lastResult?: T; lastError?: unknown; failures: RetryFailure[]; attempts: number }
  | { status: "cancelled"; lastResult?: T; lastError?: unknown; failures: RetryFailure[]; attempts: number };

export async function ralph<T>(options: RalphOptions<T>): Promise<RalphResult<T>> {
  const strategy = options.retryStrategy ?? noDelay();
  const signal = options.signal ?? new AbortController().signal;
  const failures: RetryFailure[] = [];
  let lastResult: T | undefined;
  let lastError: unknown;
  let attempts = 0;
  const cancelled = (): RalphResult<T> => ({ status: "cancelled", lastResult, lastError, failures, attempts });

  for (let attempt = 1; attempt <= Math.max(1, options.maxAttempts); attempt++) {
    if (signal.aborted) return cancelled();
    attempts = attempt;
    let failure: RetryFailure;
    let retryable = true;
    try {
      const value = await options.executor({ attempt, failures, signal });
      lastResult = value;
      const verdict = options.validator?.(value);
      if (!verdict || verdict.valid) return { status: "success", result: value, attempts, failures };
      failure = { attempt, kind: "invalid", message: verdict.errors.join("; "), errors: verdict.errors };
    } catch (error) {
      lastError = error;
      failure = { attempt, kind: "error", message: errorMessage(error), errors: [errorMessage(error)] };
      retryable = options.shouldRetry?.(error) ?? true;
    }
    failures.push(failure);
    if (signal.aborted) return cancelled();
    if (!retryable || attempt >= options.maxAttempts) break;
    const thrown = failure.kind === "error" && options.delayFor;
    await backoff(options, thrown ? (n, random) => options.delayFor!(lastError, n, random) : strategy, signal, failure);
  }
  if (signal.aborted) return cancelled();
  return { status: "exhausted", lastResult, lastError, failures, attempts };
}

async function backoff<T>(
  options: RalphOptions<T>,
  strategy: RetryStrategy,
  signal: AbortSignal,
  failure: RetryFailure,
): Promise<void> {
  const delayMs = Math.max(0, strategy(failure.attempt, options.random));
  await options.onRetry?.({ attempt: failure.attempt, nextAttempt: failure.attempt + 1, delayMs, failure });
  if (delayMs > 0) await options.sleep(delayMs, signal);
}

/**
 * Phase 1, Run: one fresh agent call with retries (SF), a per-attempt
 * timeout, and a watchdog that applies health interventions. An operator
 * kill arrives as an abort of the signal the driver passes in (see step).
 */
import type { ConsumptionRecord } from "./budget";
import type { EventLog } from "./events";
import { evaluateHealth, healthOnProgress, type HealthSnapshot } from "./health";
import { retryInput } from "./next-input";
import type { AgentRunResult, Deps, EnginePorts, TokenUsage } from "./ports";
import { ralph, retryStrategyFromConfig, type RetryFailure } from "./retry";
import type { LoopSnapshot } from "./snapshot";
import { AgentRunError, AgentTimeoutError, usageLimitSignalOf } from "./agent-run-error";
import { IterationTimeoutError } from "./failure-kind";
import { ENGINE, SYSTEM } from "./transitions";
import type { UsageLimitSignal } from "./usage-limit-time";

import { errorMessage } from "./validators";
import { retryDelayMs, retryVerdict } from "./retry-policy";

// Re-exported: adapters and tests import them with the run phase.
export { AgentRunError, AgentTimeoutError, usageLimitSignalOf };

/** Why an in-flight iteration was aborted. Pass `killReason(...)` to AbortController.abort for a kill. */
export interface AbortCause {
  kind: "kill" | "cancel" | "health";
  by: string;
  reason: string;
  /** The stored kill request behind a kill, answered in the Halt phase. */
  requestId?: string;
}

export function killReason(by: string, reason = "operator kill", requestId?: string): AbortCause {
  return { kind: "kill", by, reason, ...(requestId !== undefined ? { requestId } : {}) };
}

export function abortCauseOf(reason: unknown): AbortCause {
  if (typeof reason === "object" && reason !== null && "kind" in reason) {
    const r = reason as Partial<AbortCause>;
    if (r.kind === "kill" || r.kind === "cancel" || r.kind === "health") {
      const requestId = typeof r.requestId === "string" ? { requestId: r.requestId } : {};
      return { kind: r.kind, by: r.by ?? SYSTEM, reason: r.reason ?? r.kind, ...requestId };
    }
  }
  return { kind: "cancel", by: SYSTEM, reason: reason instanceof Error ? reason.message : "cancelled" };
}

export interface RunPhaseOutcome {
  kind: "ok" | "error" | "interrupted" | "limited";
  result: AgentRunResult | null;
  /** Present when kind is "limited". */
  limit?: UsageLimitSignal;
  error: string | null;
  /** The last attempt's error as thrown (for its failure kind and diagnostics); null on success. */
  lastError: unknown;
  cause: AbortCause | null;
  attempts: number;
  failures: RetryFailure[];
  /** The tool calls of the last attempt: its result's, or those an aborted or failed attempt reported. */
  toolCalls: string[];
  consumption: ConsumptionRecord[];
  health: HealthSnapshot;
}

export interface RunPhaseContext {
  snapshot: LoopSnapshot;
  ports: EnginePorts;
  deps: Deps;
  log: EventLog;
  signal?: AbortSignal;
  iteration: number;
  agentId: string;
  input: string;
  continuation: string | null;
  health: HealthSnapshot;
}

const count = (n: unknown) => (typeof n === "number" && Number.isFinite(n) && n > 0 ? n : 0);

/** Adapters are outside code: keep only well-formed values. */
export function normalizeResult(raw: AgentRunResult): AgentRunResult {
  return {
    ...raw,
    output: typeof raw.output === "string" ? raw.output : String(raw.output ?? ""),
    claim: { done: raw.claim?.done === true, ...(raw.claim?.text !== undefined ? { text: raw.claim.text } : {}) },
    usage: { input: count(raw.usage?.input), output: count(raw.usage?.output), cache: count(raw.usage?.cache) },
    costUsd: count(raw.costUsd),
    toolCalls: Array.isArray(raw.toolCalls) ? raw.toolCalls.filter((t) => typeof t === "string") : [],
  };
}

/** How long an aborted attempt may take to report what it did (the adapter kills its process group first). */
export const ABORT_GRACE_MS = 5000;

const toolCallsOf = (raw: unknown): string[] =>
  Array.isArray(raw) ? raw.filter((t): t is string => typeof t === "string") : [];

/** The call's own answer if it settles within `ms` on the injected clock; null if it does not. */
async function settledWithin(
  pending: Promise<AgentRunResult>,
  deps: Deps,
  ms: number,
): Promise<{ result?: AgentRunResult; error?: unknown } | null> {
  const stop = new AbortController();
  const answer = pending.then(
    (result) => ({ result }),
    (error: unknown) => ({ error }),
  );
  const late = deps.sleep(ms, stop.signal).then(
    () => null,
    () => null,
  );
  try {
    return await Promise.race([answer, late]);
  } finally {
    stop.abort("settled");
  }
}

function abortPromise(signal: AbortSignal): Promise<never> {
  const promise = new Promise<never>((_, reject) => {
    const reason = () =>
      signal.reason instanceof Error ? signal.reason : new Error(abortCauseOf(signal.reason).reason);
    const fail = () => reject(reason());
    if (signal.aborted) fail();
    else signal.addEventListener("abort", fail, { once: true });
  });
  promise.catch(() => undefined);
  return promise;
}

export async function runAgentPhase(ctx: RunPhaseContext): Promise<RunPhaseOutcome> {
  const { snapshot, ports, deps, log, iteration, agentId } = ctx;
  const config = snapshot.config;
  const run = new AbortController();
  const relayExternal = () => run.abort(abortCauseOf(ctx.signal?.reason));
  if (ctx.signal?.aborted) relayExternal();
  else ctx.signal?.addEventListener("abort", relayExternal, { once: true });

  // toolCalls: the last attempt's, kept when it was stopped before it could answer (a kill keeps them).
  const state = { health: ctx.health, consumption: [] as ConsumptionRecord[], toolCalls: [] as string[] };
  const spend = (attempt: number, usage: TokenUsage | undefined, costUsd: number | undefined, toolCalls: number) => {
    if (!usage && !costUsd) return;
    state.consumption.push({
      iteration,
      agentId,
      attempt,
      at: deps.now(),
      input: count(usage?.input),
      output: count(usage?.output),
      cache: count(usage?.cache),
      costUsd: count(costUsd),
      toolCalls,
    });
  };

  const callOnce = async (attempt: number, failures: readonly RetryFailure[], runSignal: AbortSignal) => {
    const attemptCtl = new AbortController();
    const relay = () => attemptCtl.abort(runSignal.reason);
    runSignal.addEventListener("abort", relay, { once: true });
    let started: Promise<AgentRunResult> | null = null;
    const timeoutMs = config.retry.attemptTimeout * 1000;
    if (timeoutMs > 0) {
      void deps.sleep(timeoutMs, attemptCtl.signal).then(() => {
        if (!attemptCtl.signal.aborted) attemptCtl.abort(new AgentTimeoutError(timeoutMs));
      });
    }
    try {
      const pending = ports.agent.run({
        loopId: snapshot.loopId,
        iteration,
        agentId,
        attempt,
        goal: snapshot.goal,
        input:
          attempt === 1
            ? ctx.input
            : retryInput(
                ctx.input,
                attempt,
                failures.map((f) => f.message),
              ),
        ...(ctx.continuation !== null ? { continuation: ctx.continuation } : {}),
        completionSignal: config.completion.signal,
        signal: attemptCtl.signal,
        onProgress: (event) => {
          state.health = healthOnProgress(state.health, event, deps.now());
          log.push(iteration, agentId, "agent progress", { type: "agent_progress", agentId, progress: event });
        },
      });
      pending.catch(() => undefined);
      started = pending;
      const result = normalizeResult(await Promise.race([pending, abortPromise(attemptCtl.signal)]));
      spend(attempt, result.usage, result.costUsd, result.toolCalls.length);
      state.toolCalls = result.toolCalls;
      return result;
    } catch (error) {
      // Aborted (kill, timeout, health): the adapter stops its agent and answers with what it already
      // did. Wait a bounded moment for that answer so the attempt keeps its tool calls and spend.
      const settled = started && attemptCtl.signal.aborted ? await settledWithin(started, deps, ABORT_GRACE_MS) : null;
      const told = settled?.error instanceof AgentRunError ? settled.error : error;
      if (settled?.result) {
        const late = normalizeResult(settled.result);
        spend(attempt, late.usage, late.costUsd, late.toolCalls.length);
        state.toolCalls = late.toolCalls;
      } else if (told instanceof AgentRunError) {
        const calls = toolCallsOf(told.details.toolCalls);
        spend(attempt, told.details.usage, told.details.costUsd, calls.length);
        state.toolCalls = calls;
      }
      throw error;
    } finally {
      runSignal.removeEventListener("abort", relay);
      attemptCtl.abort("attempt finished");
    }
  };

  const watchdogStop = new AbortController();
  const watchdog = runWatchdog(ctx, state, run, watchdogStop.signal);
  // stop.iterationTimeout bounds the whole iteration, retries and backoff included.
  const iterationTimeout = config.stop.iterationTimeout;
  if (iterationTimeout > 0) {
    void deps.sleep(iterationTimeout * 1000, watchdogStop.signal).then(() => {
      if (!watchdogStop.signal.aborted && !run.signal.aborted) run.abort(new IterationTimeoutError(iterationTimeout));
    });
  }
  const strategy = retryStrategyFromConfig(config.retry);
  const outcome = await ralph({
    executor: ({ attempt, failures, signal }) => callOnce(attempt, failures, signal),
    maxAttempts: config.retry.maxAttempts,
    retryStrategy: strategy,
    // By failure kind (retry-policy.ts): a limit with the provider's signal is not retried here (the
    // loop waits for its reset), a malformed reply or a spent turn budget is not retried at all.
    shouldRetry: (error) => retryVerdict(error).action === "retry",
    delayFor: (error, attempt, random) => retryDelayMs(retryVerdict(error).kind, attempt, random, strategy),
    onRetry: (event) => {
      log.push(iteration, ENGINE, event.failure.message, {
        type: "agent_retry",
        attempt: event.attempt,
        delayMs: event.delayMs,
        error: event.failure.message,
      });
    },
    signal: run.signal,
    sleep: deps.sleep,
    random: deps.random,
  });
  watchdogStop.abort("run finished"); // a reason of our own: no DOMException built per iteration
  await watchdog;
  ctx.signal?.removeEventListener("abort", relayExternal);

  const common = {
    toolCalls: state.toolCalls,
    attempts: outcome.attempts,
    failures: outcome.failures,
    consumption: state.consumption,
    health: state.health,
  };
  if (outcome.status === "success") {
    return { kind: "ok", result: outcome.result, error: null, lastError: null, cause: null, ...common };
  }
  if (run.signal.reason instanceof IterationTimeoutError) {
    // Not an interruption: the iteration failed, and the loop goes on (or stops on its failure limits).
    const error = run.signal.reason;
    return { kind: "error", result: null, error: error.message, lastError: error, cause: null, ...common };
  }
  if (outcome.status === "cancelled") {
    const cause = abortCauseOf(run.signal.reason);
    return { kind: "interrupted", result: null, error: cause.reason, lastError: null, cause, ...common };
  }
  const lastError = outcome.lastError;
  const limit = usageLimitSignalOf(lastError);
  if (limit)
    return { kind: "limited", result: null, error: errorMessage(lastError), lastError, cause: null, limit, ...common };
  return { kind: "error", result: null, error: errorMessage(lastError), lastError, cause: null, ...common };
}

/** Ticks on the injected clock while the agent runs; stops when the call settles. */
async function runWatchdog(
  ctx: RunPhaseContext,
  state: { health: HealthSnapshot },
  run: AbortController,
  stop: AbortSignal,
): Promise<void> {
  const { snapshot, deps, log, iteration } = ctx;
  const interval = snapshot.config.health.checkInterval * 1000;
  if (interval <= 0) return;
  while (!stop.aborted && !run.signal.aborted) {
    await deps.sleep(interval, stop);
    if (stop.aborted) return;
    const now = deps.now();
    const before = state.health.state;
    const evaluated = evaluateHealth(state.health, snapshot.config.health, now);
    state.health = evaluated.health;
    if (evaluated.health.state !== before) {
      log.push(iteration, ENGINE, "health check", { type: "health_changed", from: before, to: evaluated.health.state });
    }
    for (const intervention of evaluated.interventions) {
      log.push(iteration, ENGINE, intervention.message, { type: "intervention", ...intervention });
      if (intervention.level === "terminate") {
        run.abort({ kind: "health", by: ENGINE, reason: intervention.message } satisfies AbortCause);
      }
    }
  }
}

/**
 * Maps AI SDK failures onto AgentError so the engine's retry strategy
 * decides: 429 and 5xx (and network trouble) are worth another attempt,
 * other 4xx (bad key, unknown model, bad request) are not.
 */
import { APICallError } from "ai";
import { AgentError } from "./agent-error";
import { scrubSecrets } from "./redact";

export interface CallContext {
  what: string;
  signal: AbortSignal;
  timeoutSignal?: AbortSignal;
  timeoutSeconds?: number;
  secretValues: readonly string[];
}

const short = (text: string, n = 300) => (text.length > n ? `${text.slice(0, n)}…` : text);

export function llmError(error: unknown, ctx: CallContext): AgentError {
  if (error instanceof AgentError) return error;
  const scrub = (text: string) => scrubSecrets(text, ctx.secretValues);
  if (ctx.signal.aborted) return new AgentError("aborted", `${ctx.what} was stopped by the operator`, { retryable: false });
  if (ctx.timeoutSignal?.aborted) {
    return new AgentError("timeout", `${ctx.what} timed out after ${ctx.timeoutSeconds}s`, { retryable: true });
  }
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    const details = { status: status ?? null, url: error.url };
    const said = scrub(short(error.message));
    if (status === 429) return new AgentError("rate_limited", `${ctx.what}: rate limited (HTTP 429): ${said}`, { retryable: true, details });
    if (status !== undefined && (status >= 500 || status === 408)) {
      return new AgentError("provider_unavailable", `${ctx.what}: provider error (HTTP ${status}): ${said}`, { retryable: true, details });
    }
    if (status !== undefined && status >= 400) {
      return new AgentError("provider_rejected", `${ctx.what}: the provider rejected the request (HTTP ${status}): ${said}`, {
        retryable: false,
        details,
      });
    }
    return new AgentError("network", `${ctx.what}: ${said}`, { retryable: error.isRetryable, details });
  }
  const message = scrub(short(error instanceof Error ? error.message : String(error)));
  return new AgentError("network", `${ctx.what} failed: ${message}`, { retryable: true });
}

/** The caller's signal plus the configured timeout, kept apart so the error can say which fired. */
export function callSignals(signal: AbortSignal, timeoutSeconds: number): { signal: AbortSignal; timeoutSignal?: AbortSignal } {
  if (timeoutSeconds <= 0) return { signal };
  const timeoutSignal = AbortSignal.timeout(timeoutSeconds * 1000);
  return { signal: AbortSignal.any([signal, timeoutSignal]), timeoutSignal };
}

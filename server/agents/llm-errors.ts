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

/** `retry-after` and the providers' reset headers (anthropic-ratelimit-*-reset, x-ratelimit-reset-*). */
function limitHeaders(headers: Record<string, string> | undefined) {
  const lower = Object.fromEntries(Object.entries(headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)]));
  const resetHeaders = Object.fromEntries(
    Object.entries(lower).filter(([k]) => /^(anthropic-ratelimit-.*-reset|x-ratelimit-reset(-.*)?)$/.test(k)),
  );
  return { retryAfter: lower["retry-after"] ?? null, resetHeaders };
}

const short = (text: string, n = 300) => (text.length > n ? `${text.slice(0, n)}…` : text);

export function llmError(error: unknown, ctx: CallContext): AgentError {
  // Ours, possibly wrapped by the SDK (an SSRF refusal from the guarded fetch).
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof AgentError) return e;
  }
  const scrub = (text: string) => scrubSecrets(text, ctx.secretValues);
  if (ctx.signal.aborted)
    return new AgentError("aborted", `${ctx.what} was stopped by the operator`, { retryable: false });
  if (ctx.timeoutSignal?.aborted) {
    return new AgentError("timeout", `${ctx.what} timed out after ${ctx.timeoutSeconds}s`, { retryable: true });
  }
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    const details = { status: status ?? null, url: error.url };
    const said = scrub(short(error.message));
    // 429, 529 and "overloaded" are the provider's limits: the loop waits for the reset instead of retrying.
    if (status === 429 || status === 529 || (status !== undefined && status >= 500 && /overloaded/i.test(said))) {
      const message = `${ctx.what}: ${status === 429 ? "rate limited" : "provider overloaded"} (HTTP ${status}): ${said}`;
      const usageLimit = { message, ...limitHeaders(error.responseHeaders) };
      // Retryable for a lone evaluator call; an agent's run phase reads `usageLimit` and waits instead.
      return new AgentError(status === 429 ? "rate_limited" : "provider_unavailable", message, {
        retryable: true,
        details: { ...details, usageLimit },
      });
    }
    if (status !== undefined && (status >= 500 || status === 408)) {
      return new AgentError("provider_unavailable", `${ctx.what}: provider error (HTTP ${status}): ${said}`, {
        retryable: true,
        details,
      });
    }
    if (status !== undefined && status >= 400) {
      return new AgentError(
        "provider_rejected",
        `${ctx.what}: the provider rejected the request (HTTP ${status}): ${said}`,
        {
          retryable: false,
          details,
        },
      );
    }
    return new AgentError("network", `${ctx.what}: ${said}`, { retryable: error.isRetryable, details });
  }
  const message = scrub(short(error instanceof Error ? error.message : String(error)));
  return new AgentError("network", `${ctx.what} failed: ${message}`, { retryable: true });
}

/** The caller's signal plus the configured timeout, kept apart so the error can say which fired. */
export function callSignals(
  signal: AbortSignal,
  timeoutSeconds: number,
): { signal: AbortSignal; timeoutSignal?: AbortSignal } {
  if (timeoutSeconds <= 0) return { signal };
  const timeoutSignal = AbortSignal.timeout(timeoutSeconds * 1000);
  return { signal: AbortSignal.any([signal, timeoutSignal]), timeoutSignal };
}

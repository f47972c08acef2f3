/**
 * Two of Claude Code's stream-json objects read as data (shapes from the
 * 2.1.x CLI's own SDK schema):
 * - `{"type":"rate_limit_event","rate_limit_info":{"status":"allowed" |
 *   "allowed_warning" | "rejected","resetsAt":<epoch s>,"rateLimitType":
 *   "five_hour" | "seven_day" | "seven_day_opus" | …,"utilization":<0-1>}}`,
 *   emitted when the subscription's unified rate-limit state changes;
 * - the result's `modelUsage`: tokens and cost per model, side calls to
 *   another model (a title, a summary) included, which `usage` leaves out.
 */
import type { TokenUsage } from "../engine";
import { num, obj, str, type JsonObject } from "./stream-parser";

export interface ClaudeRateLimit {
  status: "allowed" | "allowed_warning" | "rejected";
  /** Epoch ms, or null when the event gave none (or an unusable one). */
  resetAt: number | null;
  window: string | null;
  /** 0-100, when the event gave the utilization. */
  usedPercent: number | null;
}

const STATUSES = new Set(["allowed", "allowed_warning", "rejected"]);

/** The rate-limit state of one event, or null when it is malformed (no known status). */
export function claudeRateLimitOf(event: JsonObject): ClaudeRateLimit | null {
  // The info object as the CLI nests it; a flat event is read the same way.
  const info = obj(event.rate_limit_info) ?? event;
  const status = str(info.status);
  if (status === undefined || !STATUSES.has(status)) return null;
  const resetsAt = info.resetsAt;
  // Epoch seconds; a value in milliseconds (13 digits) is taken as such rather than read 1000x late.
  const resetAt =
    typeof resetsAt === "number" && Number.isFinite(resetsAt) && resetsAt > 0
      ? resetsAt > 1e12
        ? resetsAt
        : resetsAt * 1000
      : null;
  // Top-level when the CLI gives it; else the window's own entry (2.1.332 prints only that one).
  const windowInfo = obj(obj(info.unifiedWindows)?.[str(info.rateLimitType) ?? ""]);
  const utilization = typeof info.utilization === "number" ? info.utilization : windowInfo?.utilization;
  const usedPercent =
    typeof utilization === "number" && Number.isFinite(utilization) && utilization >= 0
      ? Math.round(utilization * 1000) / 10
      : null;
  return {
    status: status as ClaudeRateLimit["status"],
    resetAt,
    window: str(info.rateLimitType) ?? null,
    usedPercent,
  };
}

/** Tokens summed over every model in the result's modelUsage, or null when it has none. */
export function modelUsageSum(result: JsonObject | undefined): { usage: TokenUsage; cacheWrite: number } | null {
  const models = obj(result?.modelUsage);
  if (!models) return null;
  const entries = Object.values(models)
    .map(obj)
    .filter((m): m is JsonObject => m !== undefined);
  if (entries.length === 0) return null;
  const usage = { input: 0, output: 0, cache: 0 };
  let cacheWrite = 0;
  for (const m of entries) {
    const write = num(m.cacheCreationInputTokens);
    // As with `usage`: input excludes cache reads and writes; writes are input priced apart.
    usage.input += num(m.inputTokens) + write;
    usage.output += num(m.outputTokens);
    usage.cache += num(m.cacheReadInputTokens);
    cacheWrite += write;
  }
  return { usage, cacheWrite };
}

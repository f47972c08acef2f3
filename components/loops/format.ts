// Pure display helpers, unit-tested.
import type { HealthName, LoopStatusName, StopTypeName } from "@/components/shared/vocabulary";

// The maps below are keyed by the server's vocabularies: each must name every value, or it fails to compile.
export { isLoopStatus, type HealthName, type LoopStatusName, type StopTypeName } from "@/components/shared/vocabulary";
export function formatRelative(from: Date, now: Date): string {
  const s = Math.max(0, Math.round((now.getTime() - from.getTime()) / 1000));
  if (s < 60) return `${s} s ago`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ago`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h} h ago`;
  return `${Math.floor(h / 24)} d ago`;
}

/** $0, $0.0165, $0.10, $1.50: below $1 four significant digits (trailing zeros past the cents dropped), so $0.0165 is never "$0.02". */
export function formatUsd(value: number): string {
  if (value === 0) return "$0";
  if (Math.abs(value) >= 1) return `$${value.toFixed(2)}`;
  const digits = Math.min(20, Math.max(2, 3 - Math.floor(Math.log10(Math.abs(value)))));
  const text = value.toFixed(digits).replace(/(\.\d\d\d*?)0+$/, "$1");
  return `$${text}`;
}

/** 950 ms, 12 s, 4 min 05 s, 2 h 03 min. */
export function formatDuration(ms: number | null | undefined): string {
  if (ms == null || !Number.isFinite(ms)) return "—";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${String(s % 60).padStart(2, "0")} s`;
  const h = Math.floor(m / 60);
  return `${h} h ${String(m % 60).padStart(2, "0")} min`;
}

/** 950, 12.3k, 4.1M. */
export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

export const formatScore = (v: number | null | undefined) => (v == null ? "—" : v.toFixed(2));

export type StatusTone = "neutral" | "good" | "warn" | "bad" | "info";

const STATUS: Record<LoopStatusName, { label: string; tone: StatusTone }> = {
  draft: { label: "draft", tone: "neutral" },
  queued: { label: "queued", tone: "info" },
  initializing: { label: "starting", tone: "info" },
  running: { label: "running", tone: "info" },
  interrupting: { label: "interrupting…", tone: "warn" },
  paused: { label: "paused", tone: "warn" },
  waiting: { label: "waiting", tone: "neutral" },
  waiting_for_limit: { label: "waiting for usage limit", tone: "warn" },
  awaiting_approval: { label: "awaiting approval", tone: "warn" },
  needs_attention: { label: "needs attention", tone: "warn" },
  completed: { label: "completed", tone: "good" },
  failed: { label: "failed", tone: "bad" },
  stopped: { label: "stopped", tone: "neutral" },
  cancelled: { label: "cancelled", tone: "neutral" },
};

export function statusDisplay(status: LoopStatusName): { label: string; tone: StatusTone } {
  return STATUS[status];
}

const HEALTH: Record<HealthName, StatusTone> = {
  healthy: "good",
  degraded: "warn",
  stuck: "bad",
  failing: "bad",
  terminated: "bad",
};
export const healthTone = (health: HealthName): StatusTone => HEALTH[health];

const STOP: Record<StopTypeName, string> = {
  none: "not stopped",
  completion: "goal met (evidence)",
  score_threshold: "score threshold reached",
  max_iterations: "iteration limit",
  timeout: "time limit",
  max_cost: "cost limit",
  budget_exhausted: "budget exhausted",
  max_consecutive_failures: "too many failures in a row",
  no_progress: "no progress",
  usage_limit: "provider usage limit (policy: stop)",
  health_failure: "health failure",
  circuit_breaker_open: "circuit breaker open",
  explicit_stop: "terminated by an operator",
  user_interrupted: "interrupted by an operator",
  system_error: "system error",
  cancelled: "cancelled",
  race_lost: "another contender won the race",
};

export const stopTypeLabel = (stopType: StopTypeName | null | undefined) => (stopType ? STOP[stopType] : null);
export const isStopType = (value: unknown): value is StopTypeName =>
  typeof value === "string" && Object.hasOwn(STOP, value);

/** Share of the budget spent, clamped to [0, 1]; null without a budget. */
export function budgetShare(cost: number, budget: number | null): number | null {
  if (!budget || budget <= 0) return null;
  return Math.min(1, Math.max(0, cost / budget));
}

/** "1 h 12 m", "4 m", "30 s": a wait as people say it. */
export function formatWait(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m} m`;
  const h = Math.floor(m / 60);
  if (h < 48) return m % 60 ? `${h} h ${m % 60} m` : `${h} h`;
  return `${Math.round(h / 24)} d`;
}

/** "resumes 17:02 (in 1 h 12 m)" for a loop waiting for a usage limit; null when no time is set. */
export function limitResumeText(nextRunAt: string | Date | null | undefined, now: number): string | null {
  if (!nextRunAt) return null;
  const at = new Date(nextRunAt);
  const hhmm = `${String(at.getHours()).padStart(2, "0")}:${String(at.getMinutes()).padStart(2, "0")}`;
  const left = at.getTime() - now;
  return left > 0 ? `resumes ${hhmm} (in ${formatWait(left)})` : `resumes ${hhmm} (due now)`;
}

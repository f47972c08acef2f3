// Pure display helpers, unit-tested.
export function formatRelative(from: Date, now: Date): string {
  const s = Math.max(0, Math.round((now.getTime() - from.getTime()) / 1000));
  if (s < 60) return `${s} s ago`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ago`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h} h ago`;
  return `${Math.floor(h / 24)} d ago`;
}

export function formatUsd(value: number): string {
  if (value === 0) return "$0";
  if (value < 0.01) return `$${value.toFixed(4)}`;
  return `$${value.toFixed(2)}`;
}

export type StatusTone = "neutral" | "good" | "warn" | "bad" | "info";

const STATUS: Record<string, { label: string; tone: StatusTone }> = {
  draft: { label: "draft", tone: "neutral" },
  queued: { label: "queued", tone: "info" },
  running: { label: "running", tone: "info" },
  interrupting: { label: "interrupting…", tone: "warn" },
  paused: { label: "paused", tone: "warn" },
  waiting: { label: "waiting", tone: "neutral" },
  awaiting_approval: { label: "awaiting approval", tone: "warn" },
  completed: { label: "completed", tone: "good" },
  failed: { label: "failed", tone: "bad" },
  stopped: { label: "stopped", tone: "neutral" },
  terminated: { label: "terminated", tone: "bad" },
};

export function statusDisplay(status: string): { label: string; tone: StatusTone } {
  return STATUS[status] ?? { label: status, tone: "neutral" };
}

/** Share of the budget spent, clamped to [0, 1]; null without a budget. */
export function budgetShare(cost: number, budget: number | null): number | null {
  if (!budget || budget <= 0) return null;
  return Math.min(1, Math.max(0, cost / budget));
}

// Which stored events are alerts, and of which kind. Shared by storage (the
// outbox is filled in the same transaction as the event) and the alert
// services, so it sits at the server root with the other plain vocabularies.
export const ALERT_KINDS = [
  "attention",
  "approval",
  "budget",
  "runaway",
  "health",
  "loop_ended",
  "usage_limit",
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

export const ALERT_KIND_LABELS: Record<AlertKind, string> = {
  attention: "Needs attention (escalation, question)",
  approval: "Approval gate opened",
  budget: "Budget threshold crossed",
  runaway: "Runaway alarm (iteration rate)",
  health: "Silent agent or health escalation",
  loop_ended: "Loop completed, failed or stopped, or its work landed",
  usage_limit: "Waiting for a provider usage limit starts or ends",
};

/** Event types written by the alarm check (server/alerts): not engine events, but stored the same way. */
export const ALARM_EVENT = "alarm_raised";
/** An alarm that went away (state for open pages; never an alert). */
export const ALARM_CLEARED_EVENT = "alarm_cleared";

const WORSE_HEALTH = new Set(["stuck", "failing", "terminated"]);

/** The alert an event raises, or null. Pure: decided from the event row alone. */
export function alertKindOf(event: { type: string; payload?: unknown }): AlertKind | null {
  const p = (event.payload ?? {}) as Record<string, unknown>;
  switch (event.type) {
    case "approval_requested":
      return "approval";
    case "budget_alert":
      return "budget";
    case "halted":
      return "loop_ended";
    // The merge queue (docs/merge-queue.md): the work reached its target, or an operator must look.
    case "landing_landed":
      return "loop_ended";
    case "landing_needs_review":
      return "attention";
    // A new waiting period, and the end of each wait; recurrences inside a period stay quiet.
    case "limit_wait_started":
      return p.newPeriod === true ? "usage_limit" : null;
    case "limit_wait_ended":
      return "usage_limit";
    case "limit_needs_attention":
    case "attention_needed":
      return "attention";
    // Repeated tampering: an operator should look (the first is only restored and recorded).
    case "evidence_tampered":
      return typeof p.repeated === "number" && p.repeated >= 2 ? "attention" : null;
    case "intervention":
      return p.level === "escalate" || p.level === "terminate" ? "attention" : null;
    case "health_changed":
      return WORSE_HEALTH.has(String(p.to)) ? "health" : null;
    case ALARM_EVENT:
      // Back within the quiet period: the alert went out already.
      if (p.repeat === true) return null;
      if (p.alarm === "spend_rate") return "budget";
      return p.alarm === "runaway" ? "runaway" : p.alarm === "silent" ? "health" : null;
    default:
      return null;
  }
}

export const ALERTABLE_EVENT_TYPES: ReadonlySet<string> = new Set([
  "approval_requested",
  "budget_alert",
  "halted",
  "landing_landed",
  "landing_needs_review",
  "intervention",
  "attention_needed",
  "health_changed",
  "limit_wait_started",
  "limit_wait_ended",
  "limit_needs_attention",
  ALARM_EVENT,
]);

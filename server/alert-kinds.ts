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

/** Where one delivery stands: waiting for its next attempt, sent, or given up on after its last retry. */
export const DELIVERY_STATUSES = ["pending", "delivered", "dead"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** A stored delivery status read back as the vocabulary; a value the code never writes is a bug, said loudly. */
export function asDeliveryStatus(stored: string): DeliveryStatus {
  if ((DELIVERY_STATUSES as readonly string[]).includes(stored)) return stored as DeliveryStatus;
  throw new Error(`unknown alert delivery status in storage: ${JSON.stringify(stored)}`);
}

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
    // Claude Code asked permission for a tool call the loop's policy watches (docs/permissions.md).
    case "permission_requested":
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
  "permission_requested",
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

// Notices: the class vocabulary lives in lib/notices/notice-classes.ts, which the browser reads too.
import type { NoticeClass } from "../lib/notices/notice-classes";
export { NOTICE_CLASSES, NOTICE_CLASS_LABELS, type NoticeClass } from "../lib/notices/notice-classes";

const FAILED_STATUSES = new Set(["failed"]);

/** The class of the notice an event raises, or null when it raises none (exactly the alertable events). */
export function noticeClassOf(event: { type: string; payload?: unknown }): NoticeClass | null {
  const kind = alertKindOf(event);
  if (!kind) return null;
  const p = (event.payload ?? {}) as Record<string, unknown>;
  switch (event.type) {
    case "attention_needed":
      return "question";
    case "approval_requested":
    case "permission_requested":
      return "permission";
    case "landing_landed":
    case "landing_needs_review":
      return "review";
    case "halted":
      return FAILED_STATUSES.has(String(p.status)) ? "error" : "done";
    case "health_changed":
      return p.to === "stuck" ? "stuck" : "error";
  }
  switch (kind) {
    case "budget":
    case "usage_limit":
      return "budget";
    case "runaway":
    case "health":
      return "stuck";
    default:
      return "error";
  }
}

/** The words a notice quotes: the agent's question, the gate's command, the stop reason; at most `max` chars. */
export function noticeExcerpt(event: { type: string; reason: string | null; payload?: unknown }, max = 160): string {
  const p = (event.payload ?? {}) as Record<string, unknown>;
  const said = [p.question, p.message, p.command, p.summary, p.detail, event.reason, p.stopType].find(
    (v): v is string => typeof v === "string" && v.trim() !== "",
  );
  const text = (said ?? event.type.replace(/_/g, " ")).replace(/\s+/g, " ").trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Where a notice leads: a question opens the loop page with its answer box open and focused. */
export function noticePath(noticeClass: NoticeClass, loopId: string): string {
  const id = encodeURIComponent(loopId);
  return noticeClass === "question" ? `/loops/${id}?answer=1#answer` : `/loops/${id}`;
}

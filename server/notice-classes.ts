// What a notice is about, in the words an operator thinks in: the one class
// vocabulary that the outbox, the API, the inbox, Web Push and the service
// worker all use. Pure and at the server root beside alert-kinds.ts, because
// storage (per-user mutes applied in the event's transaction) needs it too.
import { alertKindOf } from "./alert-kinds";

export const NOTICE_CLASSES = ["question", "permission", "error", "stuck", "budget", "done", "review"] as const;
export type NoticeClass = (typeof NOTICE_CLASSES)[number];

/** How each class is named on screen and in a notification's title. */
export const NOTICE_CLASS_LABELS: Record<NoticeClass, string> = {
  question: "Question",
  permission: "Permission",
  error: "Error",
  stuck: "Stuck",
  budget: "Budget",
  done: "Done",
  review: "Landed / needs review",
};

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
  const said = [p.question, p.message, p.command, p.detail, event.reason, p.stopType].find(
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

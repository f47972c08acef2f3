// Notices: what an alert is about, in the words an operator thinks in. The one
// class vocabulary, with its names on screen, that the outbox (per-user mutes,
// applied in the event's transaction), the API, the inbox, Web Push and the
// service worker all use. Plain data with no imports, so the server
// (server/alert-kinds.ts) and the browser read the same file.

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

// The notice classes as the browser shows them. The classes come through the
// router's types and their names from lib/notices (the file the server names
// them from too), so a class added fails to compile here until it has a tone.
import type { RouterOutputs } from "@/components/shared/api-types";
import { NOTICE_CLASS_LABELS } from "@/lib/notices/notice-classes";

export type InboxGroup = RouterOutputs["notices"]["inbox"]["open"][number];
export type NoticeClass = InboxGroup["notices"][number]["class"];

// The server's own names (one file both sides read); typed against the router's classes.
export const NOTICE_LABELS: Record<NoticeClass, string> = NOTICE_CLASS_LABELS;

export const NOTICE_CLASS_LIST = Object.keys(NOTICE_LABELS) as NoticeClass[];

export const NOTICE_TONES: Record<NoticeClass, string> = {
  question: "bg-amber-100 text-amber-900 dark:bg-amber-900/40 dark:text-amber-200",
  permission: "bg-violet-100 text-violet-900 dark:bg-violet-900/40 dark:text-violet-200",
  error: "bg-red-100 text-red-900 dark:bg-red-900/40 dark:text-red-200",
  stuck: "bg-orange-100 text-orange-900 dark:bg-orange-900/40 dark:text-orange-200",
  budget: "bg-sky-100 text-sky-900 dark:bg-sky-900/40 dark:text-sky-200",
  done: "bg-emerald-100 text-emerald-900 dark:bg-emerald-900/40 dark:text-emerald-200",
  review: "bg-slate-200 text-slate-900 dark:bg-slate-800 dark:text-slate-200",
};

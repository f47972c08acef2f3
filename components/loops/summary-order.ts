// The summary bar's status chips: working states first, then those waiting
// on someone, then the finished ones; statuses the list can filter by are
// buttons. Pure.
import { STATUS_FILTERS } from "./list-params";

const ORDER = [
  "running",
  "queued",
  "initializing",
  "interrupting",
  "waiting",
  "waiting_for_limit",
  "paused",
  "awaiting_approval",
  "needs_attention",
  "draft",
  "completed",
  "failed",
  "stopped",
  "cancelled",
  "terminated",
];

export function summaryStatuses(
  byStatus: Record<string, number>,
): { status: string; count: number; filterable: boolean }[] {
  const rank = (s: string) => {
    const i = ORDER.indexOf(s);
    return i === -1 ? ORDER.length : i;
  };
  return Object.entries(byStatus)
    .filter(([, count]) => count > 0)
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([status, count]) => ({
      status,
      count,
      filterable: (STATUS_FILTERS as readonly string[]).includes(status),
    }));
}

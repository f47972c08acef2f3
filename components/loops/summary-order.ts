// The summary bar's status chips: working states first, then those waiting
// on someone, then the finished ones; statuses the list can filter by are
// buttons. Pure.
import type { LoopStatusName } from "./format";
import { STATUS_FILTERS } from "./list-params";

// Every status, so a new one fails to compile until it has its place.
const ORDER: Record<LoopStatusName, number> = Object.fromEntries(
  (
    [
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
    ] satisfies LoopStatusName[]
  ).map((s, i) => [s, i]),
) as Record<LoopStatusName, number>;

export function summaryStatuses(
  byStatus: Partial<Record<LoopStatusName, number>>,
): { status: LoopStatusName; count: number; filterable: boolean }[] {
  return (Object.entries(byStatus) as [LoopStatusName, number][])
    .filter(([, count]) => count > 0)
    .sort(([a], [b]) => ORDER[a] - ORDER[b])
    .map(([status, count]) => ({
      status,
      count,
      filterable: (STATUS_FILTERS as readonly string[]).includes(status),
    }));
}

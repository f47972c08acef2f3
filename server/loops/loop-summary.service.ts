// The list's summary bar: loops by status, spend today, approvals waiting and
// loops needing attention (by the same rule as the "needs attention" alarm).
import {
  ALARM_ACTIVE_STATUSES,
  ATTENTION_HEALTH_STATES,
  ATTENTION_STATUSES,
  asLoopRowStatus,
  type LoopRowStatus,
} from "../engine";
import type { Database } from "../db/client";
import { loopSummaryCounts } from "../db/loop-summary.repo";

const DAY_MS = 86_400_000;

/**
 * "Today" starts at the browser's local midnight when it says when that was
 * (within the last day), else at UTC midnight: the operator's day, not the server's.
 */
export function dayStart(now: number, requested?: number): number {
  if (requested !== undefined && requested <= now && now - requested < DAY_MS) return requested;
  return now - (now % DAY_MS);
}

export async function loopListSummary(db: Database, now: number, requestedDayStart?: number) {
  const since = dayStart(now, requestedDayStart);
  const counts = await loopSummaryCounts(db.prisma, {
    since: new Date(since),
    attentionStatuses: [...ATTENTION_STATUSES],
    activeStatuses: [...ALARM_ACTIVE_STATUSES],
    attentionHealth: [...ATTENTION_HEALTH_STATES],
  });
  const byStatus: Partial<Record<LoopRowStatus, number>> = {};
  for (const [status, count] of Object.entries(counts.byStatus)) byStatus[asLoopRowStatus(status)] = count;
  const total = Object.values(counts.byStatus).reduce((a, b) => a + b, 0);
  return { ...counts, byStatus, total, since: new Date(since) };
}

// The list's summary bar: a handful of aggregate queries, each on an index,
// however many loops and iterations there are (no rows are read into memory).
import type { Db } from "./prisma-client";

export interface LoopSummaryCounts {
  byStatus: Record<string, number>;
  /** Spend of the iterations finished since `since`. */
  spendSinceUsd: number;
  approvalsWaiting: number;
  needsAttention: number;
}

export async function loopSummaryCounts(
  db: Db,
  args: { since: Date; attentionStatuses: string[]; activeStatuses: string[]; attentionHealth: string[] },
): Promise<LoopSummaryCounts> {
  const [statuses, touched, approvalsWaiting, needsAttention] = await Promise.all([
    db.loop.groupBy({ by: ["status"], _count: { _all: true } }),
    // A step commit updates its loop, so only loops updated since then can have spent since then.
    db.loop.findMany({ where: { updatedAt: { gte: args.since } }, select: { id: true } }),
    db.approval.count({ where: { status: "pending" } }),
    db.loop.count({
      where: {
        OR: [
          { status: { in: args.attentionStatuses } },
          { status: { in: args.activeStatuses }, health: { in: args.attentionHealth } },
        ],
      },
    }),
  ]);
  const spent =
    touched.length === 0
      ? null
      : await db.iteration.aggregate({
          where: { loopId: { in: touched.map((l) => l.id) }, finishedAt: { gte: args.since } },
          _sum: { costUsd: true },
        });
  return {
    byStatus: Object.fromEntries(statuses.map((s) => [s.status, s._count._all])),
    spendSinceUsd: spent?._sum.costUsd ?? 0,
    approvalsWaiting,
    needsAttention,
  };
}

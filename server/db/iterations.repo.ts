// Iteration reads: the light series the charts need, and full rows by page.
import type { Db } from "./client";

export const SERIES_LIMIT = 2000;

export function iterationSeries(db: Db, loopId: string) {
  return db.iteration.findMany({
    where: { loopId },
    orderBy: [{ number: "asc" }, { attempt: "asc" }],
    take: SERIES_LIMIT,
    select: {
      number: true,
      attempt: true,
      status: true,
      scores: true,
      meanScore: true,
      costUsd: true,
      tokensIn: true,
      tokensOut: true,
      tokensCache: true,
      durationMs: true,
      health: true,
      handoffTrigger: true,
      claimedDone: true,
      claimMismatch: true,
      evidenceComplete: true,
      finishedAt: true,
    },
  });
}

export function iterationPage(db: Db, loopId: string, options: { beforeNumber?: number; limit: number }) {
  return db.iteration.findMany({
    where: { loopId, ...(options.beforeNumber ? { number: { lt: options.beforeNumber } } : {}) },
    orderBy: [{ number: "desc" }, { attempt: "desc" }],
    take: options.limit,
  });
}

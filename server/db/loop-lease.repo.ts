// Leases: at most one runtime owns a loop at a time. Every write a runtime
// makes is fenced by its lease owner id (unique per claim), so a runtime whose
// lease expired and was taken over can no longer write. Claims, renewals and
// the launch fence are the loop store's (loop-store/); here is what makes a
// loop claimable, for them and for the sweeper.
import type { Db } from "./prisma-client";

/** Statuses a runtime picks up right away (running only once its lease is free). */
export const RUNNABLE_STATUSES = ["queued", "running"] as const;
/** Statuses a runtime picks up once `nextRunAt` has passed (pacing, throttle, approval deadline). */
export const SCHEDULED_STATUSES = ["waiting", "waiting_for_limit", "awaiting_approval"] as const;

export class LeaseLostError extends Error {
  constructor(readonly loopId: string) {
    super(`lease on loop ${loopId} was lost`);
    this.name = "LeaseLostError";
  }
}

/** Statuses in which a loop may hold operator requests a runtime still has to apply. */
export const CONTROLLABLE_STATUSES = [...RUNNABLE_STATUSES, ...SCHEDULED_STATUSES, "paused", "needs_attention"];

/** A loop a runtime may claim now: no live lease, and runnable, due, or holding requests. */
export const claimableWhere = (now: Date) => ({
  AND: [
    { OR: [{ leaseOwner: null }, { leaseExpiresAt: { lt: now } }] },
    {
      OR: [
        { status: { in: [...RUNNABLE_STATUSES] } },
        { status: { in: [...SCHEDULED_STATUSES] }, nextRunAt: { lte: now } },
        // A runtime died holding requests it had not applied yet (even on a paused loop).
        { status: { in: CONTROLLABLE_STATUSES }, controls: { some: { status: "pending" } } },
      ],
    },
  ],
});

/** Ids of loops that need a runtime now: runnable with no live lease, or due. */
export async function findDueLoops(db: Db, now: Date, limit: number): Promise<string[]> {
  const rows = await db.loop.findMany({ where: claimableWhere(now), select: { id: true }, take: limit });
  return rows.map((r) => r.id);
}

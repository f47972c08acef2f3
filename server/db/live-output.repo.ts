// Storage of the live view of the iteration in flight (see server/live-output.ts).
// Its rows are events, so the existing event stream and wake-ups carry them to
// every tab and process; unlike the audit log they are transient and capped.
import { LIVE_EVENT, LIVE_ROWS_KEPT } from "../live-output";
import type { Db } from "./prisma-client";
import { appendEvents, type NewLoopEvent, type StoredLoopEvent } from "./events.repo";
import { inTransaction } from "./tx";

/**
 * Appends a live batch and the health events that happened with it, if this
 * runtime still holds the loop's lease. Returns false when it does not (the
 * loop was taken over): nothing is written then.
 */
export async function writeLiveEvents(
  db: Db,
  input: { loopId: string; owner: string; events: NewLoopEvent[]; prune: boolean },
): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    const held = await tx.loop.count({ where: { id: input.loopId, leaseOwner: input.owner } });
    if (held !== 1) return false;
    await appendEvents(tx, input.events);
    if (input.prune) {
      const cut = await tx.loopEvent.findFirst({
        where: { loopId: input.loopId, type: LIVE_EVENT },
        orderBy: { id: "desc" },
        skip: LIVE_ROWS_KEPT,
        select: { id: true },
      });
      if (cut)
        await tx.loopEvent.deleteMany({ where: { loopId: input.loopId, type: LIVE_EVENT, id: { lte: cut.id } } });
    }
    return true;
  });
}

/** The iteration is stored (or abandoned): its live rows go. */
export async function clearLiveEvents(db: Db, loopId: string): Promise<void> {
  await db.loopEvent.deleteMany({ where: { loopId, type: LIVE_EVENT } });
}

/** The live rows of a loop, oldest first (at most LIVE_ROWS_KEPT plus a flush or two). */
export function liveEventsOf(db: Db, loopId: string): Promise<StoredLoopEvent[]> {
  return db.loopEvent.findMany({
    where: { loopId, type: LIVE_EVENT },
    orderBy: { id: "asc" },
    take: LIVE_ROWS_KEPT * 2,
  });
}

/** The newest live row of each of these loops. */
export async function latestLiveEvents(db: Db, loopIds: string[]): Promise<StoredLoopEvent[]> {
  if (loopIds.length === 0) return [];
  const newest = await db.loopEvent.groupBy({
    by: ["loopId"],
    where: { loopId: { in: loopIds }, type: LIVE_EVENT },
    _max: { id: true },
  });
  const ids = newest.map((n) => n._max.id).filter((id): id is number => id !== null);
  if (ids.length === 0) return [];
  return db.loopEvent.findMany({ where: { id: { in: ids } } });
}

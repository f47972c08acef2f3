// The append-only audit and live-update log. Ids only grow; readers resume
// from the last id they saw.
import type { Db } from "./client";
import type { Prisma } from "./generated/sqlite/client";
import type { Tx } from "./tx";

export interface NewLoopEvent {
  loopId: string | null;
  type: string;
  actorId?: string | null;
  actor?: string;
  reason?: string | null;
  payload?: unknown;
}

export interface StoredLoopEvent {
  id: number;
  loopId: string | null;
  type: string;
  actorId: string | null;
  actor: string;
  reason: string | null;
  payload: unknown;
  createdAt: Date;
}

const toRow = (e: NewLoopEvent): Prisma.LoopEventCreateManyInput => ({
  loopId: e.loopId,
  type: e.type,
  actorId: e.actorId ?? null,
  actor: e.actor ?? "system",
  reason: e.reason ?? null,
  payload: (e.payload ?? undefined) as Prisma.InputJsonValue | undefined,
});

export async function appendEvents(tx: Tx | Db, events: NewLoopEvent[]): Promise<void> {
  if (events.length === 0) return;
  await tx.loopEvent.createMany({ data: events.map(toRow) });
}

export async function readEventsAfter(
  db: Db,
  afterId: number,
  options: { loopId?: string; limit?: number } = {},
): Promise<StoredLoopEvent[]> {
  return db.loopEvent.findMany({
    where: { id: { gt: afterId }, ...(options.loopId ? { loopId: options.loopId } : {}) },
    orderBy: { id: "asc" },
    take: options.limit ?? 500,
  });
}

export async function latestEventId(db: Db): Promise<number> {
  const last = await db.loopEvent.findFirst({ orderBy: { id: "desc" }, select: { id: true } });
  return last?.id ?? 0;
}

export async function listEvents(
  db: Db,
  loopId: string,
  options: { beforeId?: number; limit: number; types?: string[] },
): Promise<StoredLoopEvent[]> {
  return db.loopEvent.findMany({
    where: {
      loopId,
      ...(options.beforeId ? { id: { lt: options.beforeId } } : {}),
      ...(options.types?.length ? { type: { in: options.types } } : {}),
    },
    orderBy: { id: "desc" },
    take: options.limit,
  });
}

// Permission prompts (Claude Code's --permission-prompt-tool, watched by the loop's
// policy): created when the agent asks, decided once (operator, deadline default or
// the loop ending), each change committed with its audit event.
import { appendEvents, type NewLoopEvent } from "./events.repo";
import type { Db } from "./prisma-client";
import { inTransaction } from "./tx";

export interface NewPermissionRequest {
  id: string;
  loopId: string;
  iteration: number;
  attempt: number;
  toolName: string;
  toolUseId: string | null;
  input: string;
  summary: string;
  reason: string;
  risk: string;
  requestedAt: Date;
  deadlineAt: Date;
  defaultAction: string;
}

export interface PermissionDecision {
  status: "allowed" | "denied";
  decidedAt: Date;
  decidedById: string | null;
  decidedBy: string;
  byDefault: boolean;
  message: string | null;
}

export async function createPermissionRequest(db: Db, row: NewPermissionRequest, event: NewLoopEvent) {
  return inTransaction(db, async (tx) => {
    const created = await tx.permissionRequest.create({ data: row });
    await appendEvents(tx, [event]);
    return created;
  });
}

/** The loop's status, polled by a waiting prompt (a killed loop's prompt is denied). */
export const loopStatusOf = async (db: Db, loopId: string) =>
  (await db.loop.findUnique({ where: { id: loopId }, select: { status: true } }))?.status ?? null;

export const getPermissionRequest = (db: Db, id: string) => db.permissionRequest.findUnique({ where: { id } });

/** A loop's prompts, pending first then newest, at most `limit`. */
export const loopPermissionRequests = (db: Db, loopId: string, limit: number) =>
  db.permissionRequest.findMany({ where: { loopId }, orderBy: { requestedAt: "desc" }, take: limit });

/** Pending prompts whose deadline has passed (any loop), oldest first. */
export const duePermissionRequests = (db: Db, now: Date, limit: number) =>
  db.permissionRequest.findMany({
    where: { status: "pending", deadlineAt: { lte: now } },
    orderBy: { deadlineAt: "asc" },
    take: limit,
  });

/** Pending prompts of loops that are no longer running (killed, finished) or of an attempt that ended. */
export const strandedPermissionRequests = (db: Db, loopId: string | null, limit: number) =>
  db.permissionRequest.findMany({
    where: { status: "pending", ...(loopId ? { loopId } : {}), loop: { status: { not: "running" } } },
    take: limit,
  });

/**
 * Decides a pending prompt, once: the first decision wins (operator, deadline or loop end, from any
 * process), later ones find it decided and get null. The audit event commits with it.
 */
export async function decidePermissionRequest(
  db: Db,
  id: string,
  decision: PermissionDecision,
  event: (row: { loopId: string }) => NewLoopEvent,
) {
  return inTransaction(db, async (tx) => {
    const { count } = await tx.permissionRequest.updateMany({ where: { id, status: "pending" }, data: decision });
    if (count === 0) return null;
    const row = await tx.permissionRequest.findUniqueOrThrow({ where: { id } });
    await appendEvents(tx, [event(row)]);
    return row;
  });
}

// Stored operator requests. Every request gets exactly one outcome, written
// in the transaction that stores its effect: applied at once on an idle loop
// (the service, fenced by the loop's version), applied at a runtime's safe
// point (fenced by its lease), refused, or rejected when the loop ends first.
import type { Db } from "./prisma-client";
import { appendEvents, type NewLoopEvent } from "./events.repo";
import type { Prisma } from "./generated/sqlite/client";
import { inTransaction, type Tx } from "./tx";

export interface NewControlRequest {
  id: string;
  loopId: string;
  kind: string;
  payload?: unknown;
  actorId: string | null;
  actor: string;
  reason: string | null;
  status?: "pending" | "applied" | "rejected";
  result?: string | null;
}

export interface ControlSettlement {
  requestId: string;
  outcome: "applied" | "rejected";
  note: string;
  at: number;
}

/** A request's effect was stored twice: the transaction must not commit. */
export class ControlAlreadySettledError extends Error {
  constructor(readonly requestId: string) {
    super(`control request ${requestId} was already settled`);
    this.name = "ControlAlreadySettledError";
  }
}

export async function insertControlRequest(tx: Tx | Db, request: NewControlRequest) {
  return tx.controlRequest.create({
    data: {
      id: request.id,
      loopId: request.loopId,
      kind: request.kind,
      payload: (request.payload ?? undefined) as Prisma.InputJsonValue | undefined,
      actorId: request.actorId,
      actor: request.actor,
      reason: request.reason,
      status: request.status ?? "pending",
      result: request.result ?? null,
      appliedAt: request.status && request.status !== "pending" ? new Date() : null,
    },
  });
}

/** The requests a safe point applies: pending ones, oldest first. */
export function pendingControlRequests(db: Db | Tx, loopId: string) {
  return db.controlRequest.findMany({
    where: { loopId, status: "pending" },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true, kind: true, payload: true, actorId: true, actor: true, reason: true, createdAt: true },
  });
}

/** Marks each request with its outcome; one that was already settled aborts the transaction. */
export async function settleControlRequests(tx: Tx, settled: readonly ControlSettlement[]) {
  for (const ack of settled) {
    const done = await tx.controlRequest.updateMany({
      where: { id: ack.requestId, status: "pending" },
      data: { status: ack.outcome, result: ack.note, appliedAt: new Date(ack.at) },
    });
    if (done.count !== 1) throw new ControlAlreadySettledError(ack.requestId);
  }
}

/** The loop ended: what is still pending will never apply. Each gets its one outcome, and its audit event. */
export async function rejectPendingControls(tx: Tx, loopId: string, status: string, at: Date) {
  // A late spend report is not a control: it still applies after the end (stranded-spend.repo.ts).
  const pending = (await pendingControlRequests(tx, loopId)).filter((p) => p.kind !== "record_spend");
  if (pending.length === 0) return;
  const note = `the loop ended (${status}) before this was applied`;
  await tx.controlRequest.updateMany({
    where: { id: { in: pending.map((p) => p.id) }, status: "pending" },
    data: { status: "rejected", result: note, appliedAt: at },
  });
  await appendEvents(
    tx,
    pending.map((p) => ({
      loopId,
      type: "control_rejected",
      actorId: p.actorId,
      actor: p.actor,
      reason: note,
      payload: { requestId: p.id, command: p.kind },
    })),
  );
}

/** What the control service reads to decide: the loop, its lease, its pending requests, its checkpoint. */
export async function controlTarget(db: Db, loopId: string) {
  const loop = await db.loop.findUnique({
    where: { id: loopId },
    select: { id: true, status: true, version: true, leaseOwner: true, leaseExpiresAt: true, checkpointId: true },
  });
  if (!loop) return null;
  const [pending, checkpoint] = await Promise.all([
    db.controlRequest.findMany({ where: { loopId, status: "pending" }, select: { kind: true } }),
    loop.checkpointId ? db.checkpoint.findUnique({ where: { id: loop.checkpointId } }) : null,
  ]);
  return { loop, pendingKinds: pending.map((p) => p.kind), checkpoint };
}

/** A request refused outright: stored as rejected with its one audit event. */
export async function recordRefusedControl(db: Db, request: NewControlRequest, event: NewLoopEvent) {
  await inTransaction(db, async (tx) => {
    await insertControlRequest(tx, { ...request, status: "rejected" });
    await appendEvents(tx, [event]);
  });
}

/**
 * Stores a request for the runtime that holds the loop (`expected: "leased"`).
 * The update takes the loop row's lock, so it orders against that runtime's
 * commit: the commit either sees this request (and keeps the loop to apply
 * it) or released the loop first, and then this update matches nothing and
 * the caller decides again, on an idle loop. It does not compare versions: a
 * runtime commits every iteration, and a request must not lose that race.
 * A loop nobody holds (its checkpoint unreadable) is fenced by its version.
 */
export async function storeDeferredControl(
  db: Db,
  loopId: string,
  expected: "leased" | { version: number },
  request: NewControlRequest,
  event: NewLoopEvent,
): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    const guard = expected === "leased" ? { leaseOwner: { not: null } } : { version: expected.version };
    const locked = await tx.loop.updateMany({ where: { id: loopId, ...guard }, data: { version: { increment: 1 } } });
    if (locked.count !== 1) return false;
    await insertControlRequest(tx, { ...request, status: "pending" });
    await appendEvents(tx, [event]);
    return true;
  });
}

/** Terminating a draft that never ran ends it at once. */
export async function finalizeDraft(
  db: Db,
  expected: { loopId: string; version: number },
  stop: { reason: string; at: Date },
  request: NewControlRequest,
  events: NewLoopEvent[],
): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    const done = await tx.loop.updateMany({
      where: { id: expected.loopId, version: expected.version, status: "draft" },
      data: {
        status: "stopped",
        stopType: "explicit_stop",
        stopReason: stop.reason,
        finishedAt: stop.at,
        version: { increment: 1 },
      },
    });
    if (done.count !== 1) return false;
    await insertControlRequest(tx, { ...request, status: "applied" });
    await appendEvents(tx, events);
    return true;
  });
}

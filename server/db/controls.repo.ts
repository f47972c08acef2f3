// Stored operator requests. The API inserts them; the runtime reads the
// pending ones at a safe point and marks each applied or rejected in the same
// transaction that stores the effect.
import type { Db } from "./client";
import type { Prisma } from "./generated/sqlite/client";
import type { Tx } from "./tx";

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

export function pendingControlRequests(db: Db | Tx, loopId: string) {
  return db.controlRequest.findMany({
    where: { loopId, status: "pending" },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
}

export async function settleControlRequests(
  tx: Tx,
  settled: { requestId: string; outcome: "applied" | "rejected"; note: string; at: number }[],
) {
  for (const ack of settled) {
    await tx.controlRequest.updateMany({
      where: { id: ack.requestId, status: "pending" },
      data: { status: ack.outcome, result: ack.note, appliedAt: new Date(ack.at) },
    });
  }
}

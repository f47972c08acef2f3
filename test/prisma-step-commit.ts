// A test oracle: the step commit written with Prisma's model API, one
// interactive transaction. The loop stores commit through their own statements
// (server/db/step-commit-sql.ts); step-commit.db.test.ts commits the same write
// both ways on twin loops and checks they read back through Prisma alike, and
// bench/step-commit-bench.ts measures the stores against it. Never shipped.
import type { Db } from "../server/db/prisma-client";
import { appendEvents } from "../server/db/events.repo";
import { LeaseLostError } from "../server/db/loop-lease.repo";
import {
  insertControlRequest,
  pendingControlRequests,
  rejectPendingControls,
  settleControlRequests,
} from "../server/db/controls.repo";
import { insertCheckpointParts } from "../server/db/checkpoints.repo";
import { StaleLoopError } from "../server/db/step-errors";
import { DB_NULL, type StepCommitResult, type StepWrite } from "../server/db/step-write";
import { inTransaction, type JsonInput, type Tx } from "../server/db/tx";

async function fencedLoopUpdate(tx: Tx, write: StepWrite, extra: StepWrite["loop"]) {
  const fence =
    "owner" in write.fence ? { leaseOwner: write.fence.owner } : { version: write.fence.version, leaseOwner: null };
  const updated = await tx.loop.updateMany({
    where: { id: write.loopId, ...fence },
    data: { ...write.loop, ...extra, version: { increment: 1 } },
  });
  if (updated.count !== 1) {
    throw "owner" in write.fence ? new LeaseLostError(write.loopId) : new StaleLoopError(write.loopId);
  }
}

/** The step commit through Prisma: what the stores' statements are checked against. */
export async function commitStepViaPrisma(db: Db, write: StepWrite): Promise<StepCommitResult> {
  return inTransaction(db, async (tx) => {
    const inflight = write.nextInflight
      ? { inflightIteration: write.nextInflight.number, inflightAttempt: 1, inflightStartedAt: write.nextInflight.at }
      : { inflightIteration: null, inflightAttempt: null, inflightStartedAt: null };
    // First, so the loop row is locked: a control stored for this runtime
    // either committed before (and is seen below) or waits for this commit.
    await fencedLoopUpdate(tx, write, {
      ...(write.checkpoint ? { checkpointId: write.checkpoint.id } : {}),
      ...inflight,
      inflightAgent: DB_NULL,
    });
    if (write.iteration) {
      await tx.iteration.createMany({
        data: [{ ...write.iteration.row, loopId: write.loopId, attempt: write.iteration.attempt }],
      });
    }
    if (write.checkpoint) {
      const { parts, ...checkpoint } = write.checkpoint;
      await insertCheckpointParts(tx, write.loopId, parts ?? []);
      await tx.checkpoint.createMany({ data: [{ ...checkpoint, loopId: write.loopId }] });
    }
    for (const request of write.newControls ?? []) await insertControlRequest(tx, request);
    await appendEvents(tx, write.events);
    if (write.acks.length) await settleControlRequests(tx, write.acks);
    if (write.ended) await rejectPendingControls(tx, write.loopId, String(write.loop.status), new Date());
    for (const d of write.decidedApprovals ?? []) {
      await tx.approval.updateMany({
        where: { id: d.id, status: "pending" },
        data: { status: d.status, comment: d.comment, decidedBy: d.by, decidedById: d.byId, decidedAt: d.at },
      });
    }
    if (
      write.openApproval &&
      !(await tx.approval.findUnique({ where: { id: write.openApproval.id }, select: { id: true } }))
    ) {
      const { context, ...approval } = write.openApproval;
      await tx.approval.create({
        data: { ...approval, loopId: write.loopId, context: (context ?? undefined) as JsonInput | undefined },
      });
    }
    if (!("owner" in write.fence)) return { released: false };
    const pendingControls = await pendingControlRequests(tx, write.loopId);
    if (!write.release || pendingControls.length) return { released: false, pendingControls };
    await tx.loop.updateMany({
      where: { id: write.loopId, leaseOwner: write.fence.owner },
      data: { leaseOwner: null, leaseExpiresAt: null },
    });
    return { released: true };
  });
}

// What the runtime writes at a safe point. One transaction stores the
// iteration row, the checkpoint, the loop's counters and status, the events
// and the control acknowledgements, fenced by the lease: a crash can never
// leave them out of step, and a runtime that lost its lease writes nothing.
import type { Db } from "./client";
import { appendEvents, type NewLoopEvent } from "./events.repo";
import type { Prisma } from "./generated/sqlite/client";
import { LeaseLostError } from "./loop-lease.repo";
import { settleControlRequests } from "./controls.repo";
import { inTransaction, type Tx } from "./tx";

const TERMINAL = ["completed", "failed", "stopped", "cancelled"];

export interface CheckpointRow {
  id: string;
  iteration: number;
  state: string;
  sha256: string;
}

export type IterationRow = Omit<Prisma.IterationCreateManyInput, "loopId" | "attempt">;

export interface StepWrite {
  loopId: string;
  owner: string;
  loop: Prisma.LoopUpdateManyMutationInput;
  /** The iteration's row and the attempt that was marked in flight for it. */
  iteration?: { row: IterationRow; attempt: number };
  /** The iteration that starts right after this commit, if any. */
  nextInflight?: { number: number; at: Date } | null;
  checkpoint?: CheckpointRow;
  events: NewLoopEvent[];
  acks: { requestId: string; outcome: "applied" | "rejected"; note: string; at: number }[];
  /** Give the lease back (the loop waits, pauses or halted). */
  release?: boolean;
  /** A gate the loop now waits at. */
  openApproval?: { id: string; iteration: number; gate: string; deadlineAt: Date | null; defaultAction: string; context: unknown };
  /** Gates the engine resolved in this step (by an operator or by deadline). */
  decidedApprovals?: { id: string; status: string; comment: string | null; by: string; at: Date }[];
}

async function fencedLoopUpdate(tx: Tx, write: StepWrite, extra: Prisma.LoopUpdateManyMutationInput) {
  const updated = await tx.loop.updateMany({
    where: { id: write.loopId, leaseOwner: write.owner },
    data: {
      ...write.loop,
      ...extra,
      version: { increment: 1 },
      ...(write.release ? { leaseOwner: null, leaseExpiresAt: null } : {}),
    },
  });
  if (updated.count !== 1) throw new LeaseLostError(write.loopId);
}

export async function commitStep(db: Db, write: StepWrite): Promise<void> {
  await inTransaction(db, async (tx) => {
    // The next iteration follows at once: mark it in flight in this same
    // write, so an iteration costs one commit. A crash before it really starts
    // then records one interrupted attempt that never ran, which is harmless.
    const inflight = write.nextInflight
      ? { inflightIteration: write.nextInflight.number, inflightAttempt: 1, inflightStartedAt: write.nextInflight.at }
      : { inflightIteration: null, inflightAttempt: null, inflightStartedAt: null };
    await fencedLoopUpdate(tx, write, { ...(write.checkpoint ? { checkpointId: write.checkpoint.id } : {}), ...inflight });
    if (write.iteration) {
      // createMany: nothing is read back (the row carries the whole input and output).
      await tx.iteration.createMany({
        data: [{ ...write.iteration.row, loopId: write.loopId, attempt: write.iteration.attempt }],
      });
    }
    if (write.checkpoint) {
      await tx.checkpoint.createMany({ data: [{ ...write.checkpoint, loopId: write.loopId }] });
    }
    await appendEvents(tx, write.events);
    if (write.acks.length) await settleControlRequests(tx, write.acks);
    if (typeof write.loop.status === "string" && TERMINAL.includes(write.loop.status)) {
      // Nothing will ever apply what is still pending: say so instead of leaving it hanging.
      await tx.controlRequest.updateMany({
        where: { loopId: write.loopId, status: "pending" },
        data: { status: "rejected", result: `the loop ended (${write.loop.status}) before this was applied`, appliedAt: new Date() },
      });
    }
    for (const d of write.decidedApprovals ?? []) {
      // An operator decision was already recorded by the API; a deadline default is recorded here.
      await tx.approval.updateMany({
        where: { id: d.id, status: "pending" },
        data: { status: d.status, comment: d.comment, decidedBy: d.by, decidedAt: d.at },
      });
    }
    // The same gate is seen again whenever a gated loop is picked up; record it once.
    if (write.openApproval && !(await tx.approval.findUnique({ where: { id: write.openApproval.id }, select: { id: true } }))) {
      const { context, ...approval } = write.openApproval;
      await tx.approval.create({
        data: { ...approval, loopId: write.loopId, context: (context ?? undefined) as Prisma.InputJsonValue | undefined },
      });
    }
  });
}

/** Marks an iteration as started, so a crash during it is noticed by the next owner. */
export async function markInflight(db: Db, loopId: string, owner: string, number: number, now: Date): Promise<number> {
  return inTransaction(db, async (tx) => {
    const loop = await tx.loop.findUnique({ where: { id: loopId }, select: { inflightIteration: true, inflightAttempt: true } });
    const attempt = loop?.inflightIteration === number ? (loop.inflightAttempt ?? 1) : 1;
    const updated = await tx.loop.updateMany({
      where: { id: loopId, leaseOwner: owner },
      data: {
        inflightIteration: number,
        inflightAttempt: attempt,
        inflightStartedAt: now,
        lastActivityAt: now,
        status: "running",
        nextRunAt: null,
        ...(number === 1 && attempt === 1 ? { startedAt: now } : {}),
      },
    });
    if (updated.count !== 1) throw new LeaseLostError(loopId);
    return attempt;
  });
}

/**
 * After a crash: the attempt that was in flight is recorded as interrupted
 * (it spent nothing we can count) and the next attempt of the same number
 * will run. Returns the recorded attempt, or null when nothing was in flight.
 */
export async function recordCrashedAttempt(db: Db, loopId: string, owner: string, now: Date, agentId: string) {
  return inTransaction(db, async (tx) => {
    const loop = await tx.loop.findUnique({ where: { id: loopId } });
    if (!loop || loop.leaseOwner !== owner || loop.inflightIteration == null) return null;
    const number = loop.inflightIteration;
    const attempt = loop.inflightAttempt ?? 1;
    const startedAt = loop.inflightStartedAt ?? now;
    const existing = await tx.iteration.findUnique({ where: { loopId_number_attempt: { loopId, number, attempt } } });
    if (!existing) {
      await tx.iteration.create({
        data: {
          id: `${loopId}:${number}:${attempt}`,
          loopId,
          number,
          attempt,
          status: "interrupted",
          agentId,
          input: "",
          startedAt,
          finishedAt: now,
          durationMs: Math.max(0, now.getTime() - startedAt.getTime()),
          error: "the runtime stopped before this attempt finished (crash or lost lease); it runs again",
        },
      });
    }
    const updated = await tx.loop.updateMany({
      where: { id: loopId, leaseOwner: owner },
      data: { inflightAttempt: attempt + 1, version: { increment: 1 } },
    });
    if (updated.count !== 1) throw new LeaseLostError(loopId);
    await appendEvents(tx, [
      { loopId, type: "iteration_interrupted", actor: "system", reason: "runtime stopped mid-iteration", payload: { number, attempt } },
    ]);
    return { number, attempt };
  });
}

/** The checkpoint the loop row points at: the one written with its latest step. */
export async function currentCheckpoint(db: Db, loopId: string) {
  const loop = await db.loop.findUnique({ where: { id: loopId }, select: { checkpointId: true } });
  return loop?.checkpointId ? db.checkpoint.findUnique({ where: { id: loop.checkpointId } }) : null;
}

/** Gives up on a loop the runtime cannot run (bad checkpoint, unusable config). */
export async function failLoop(db: Db, loopId: string, owner: string, reason: string, now: Date) {
  await inTransaction(db, async (tx) => {
    const updated = await tx.loop.updateMany({
      where: { id: loopId, leaseOwner: owner },
      data: {
        status: "failed",
        stopType: "system_error",
        stopReason: reason,
        finishedAt: now,
        leaseOwner: null,
        leaseExpiresAt: null,
        nextRunAt: null,
        version: { increment: 1 },
      },
    });
    if (updated.count !== 1) throw new LeaseLostError(loopId);
    await appendEvents(tx, [{ loopId, type: "halted", actor: "system", reason, payload: { stopType: "system_error", status: "failed" } }]);
  });
}

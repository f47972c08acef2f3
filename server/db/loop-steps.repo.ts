// What is written at a safe point. One transaction stores the iteration row,
// the checkpoint, the loop's counters and status, the events and the control
// outcomes, fenced: by the lease for a runtime (one that lost its lease writes
// nothing), by the version for a service applying controls to an idle loop.
// A crash can never leave them out of step.
import type { Db } from "./client";
import { leanStepCommitter } from "./step-commit";
import type { StepCommitResult, StepWrite } from "./step-write";
import { appendEvents } from "./events.repo";
import { Prisma } from "./generated/sqlite/client";
import { parseInflightAgent, type InflightAgent } from "./agent-runs.repo";
import { LeaseLostError } from "./loop-lease.repo";
import {
  insertControlRequest,
  pendingControlRequests,
  rejectPendingControls,
  settleControlRequests,
} from "./controls.repo";
import { StaleLoopError } from "./step-errors";
import { inTransaction, type Tx } from "./tx";
import { insertCheckpointParts } from "./checkpoints.repo";
import { sqliteLean } from "./sqlite-lean";
import { checkpointByIdOnPg, markInflightOnPg, pgLean } from "./pg-lean";
import { encodeValue } from "./step-commit-sql";
import { lockLoopRow, settleCountedSpend } from "./stranded-spend.repo";

export type { CheckpointRow, IterationRow, PendingControl, StepCommitResult, StepFence, StepWrite } from "./step-write";
export { StaleLoopError };

async function fencedLoopUpdate(tx: Tx, write: StepWrite, extra: Prisma.LoopUpdateManyMutationInput) {
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

/**
 * Stores one safe point. Returns whether the lease was given back: a runtime
 * keeps it when requests arrived after it read them, and applies them next.
 */
export function commitStep(db: Db, write: StepWrite): Promise<StepCommitResult> {
  // The lean path (prepared statements, group commit; step-commit-sql.ts) runs
  // the same statements; this Prisma version stays for clients opened without it.
  const lean = leanStepCommitter(db);
  return lean ? lean.commit(write) : commitStepViaPrisma(db, write);
}

/** commitStep through Prisma's interactive transaction: the reference the lean path is tested against. */
export async function commitStepViaPrisma(db: Db, write: StepWrite): Promise<StepCommitResult> {
  return inTransaction(db, async (tx) => {
    // The next iteration follows at once: mark it in flight in this same
    // write, so an iteration costs one commit. A crash before it really starts
    // then records one interrupted attempt that never ran, which is harmless.
    const inflight = write.nextInflight
      ? { inflightIteration: write.nextInflight.number, inflightAttempt: 1, inflightStartedAt: write.nextInflight.at }
      : { inflightIteration: null, inflightAttempt: null, inflightStartedAt: null };
    const noAgent = { inflightAgent: Prisma.DbNull };
    // First, so the loop row is locked: a control stored for this runtime
    // either committed before (and is seen below) or waits for this commit.
    await fencedLoopUpdate(tx, write, {
      ...(write.checkpoint ? { checkpointId: write.checkpoint.id } : {}),
      ...inflight,
      ...noAgent,
    });
    if (write.iteration) {
      // createMany: nothing is read back (the row carries the whole input and output).
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
    // Nothing will ever apply what is still pending: say so instead of leaving it hanging.
    if (write.ended) await rejectPendingControls(tx, write.loopId, String(write.loop.status), new Date());
    for (const d of write.decidedApprovals ?? []) {
      await tx.approval.updateMany({
        where: { id: d.id, status: "pending" },
        data: { status: d.status, comment: d.comment, decidedBy: d.by, decidedById: d.byId, decidedAt: d.at },
      });
    }
    // The same gate is seen again whenever a gated loop is picked up; record it once.
    if (
      write.openApproval &&
      !(await tx.approval.findUnique({ where: { id: write.openApproval.id }, select: { id: true } }))
    ) {
      const { context, ...approval } = write.openApproval;
      await tx.approval.create({
        data: {
          ...approval,
          loopId: write.loopId,
          context: (context ?? undefined) as Prisma.InputJsonValue | undefined,
        },
      });
    }
    if (!("owner" in write.fence)) return { released: false };
    // Read after the loop row's update (its lock): what is pending now goes to the next safe point.
    const pendingControls = await pendingControlRequests(tx, write.loopId);
    if (!write.release || pendingControls.length) return { released: false, pendingControls };
    await tx.loop.updateMany({
      where: { id: write.loopId, leaseOwner: write.fence.owner },
      data: { leaseOwner: null, leaseExpiresAt: null },
    });
    return { released: true };
  });
}

/**
 * markInflight as one statement on SQLite: the attempt is computed from the row's old values (every SET
 * expression sees them), and the update commits on its own, durable before the agent starts.
 */
const MARK_INFLIGHT_SQL = `UPDATE "Loop" SET
  "inflightAttempt" = CASE WHEN "inflightIteration" = @number THEN COALESCE("inflightAttempt", 1) ELSE 1 END,
  "startedAt" = CASE WHEN @number = 1 AND ("inflightIteration" IS NOT @number OR COALESCE("inflightAttempt", 1) = 1)
    THEN @at ELSE COALESCE("startedAt", @at) END,
  "inflightIteration" = @number, "inflightStartedAt" = @at, "inflightAgent" = NULL, "lastActivityAt" = @at,
  "status" = 'running', "nextRunAt" = NULL, "updatedAt" = @at
  WHERE "id" = @id AND "leaseOwner" = @owner RETURNING "inflightAttempt"`;

/** Marks an iteration as started, so a crash during it is noticed by the next owner. */
export async function markInflight(db: Db, loopId: string, owner: string, number: number, now: Date): Promise<number> {
  const lean = sqliteLean(db);
  if (lean) {
    const at = encodeValue("sqlite", "Loop", "inflightStartedAt", now);
    const row = await lean.run(
      (prepare) =>
        prepare(MARK_INFLIGHT_SQL).get({ number, at, id: loopId, owner }) as { inflightAttempt: number } | undefined,
    );
    if (!row) throw new LeaseLostError(loopId);
    return row.inflightAttempt;
  }
  const pg = pgLean(db);
  if (pg) {
    const attempt = await markInflightOnPg(pg, loopId, owner, number, now);
    if (attempt === null) throw new LeaseLostError(loopId);
    return attempt;
  }
  return inTransaction(db, async (tx) => {
    const loop = await tx.loop.findUnique({
      where: { id: loopId },
      select: { inflightIteration: true, inflightAttempt: true, startedAt: true },
    });
    const attempt = loop?.inflightIteration === number ? (loop.inflightAttempt ?? 1) : 1;
    const updated = await tx.loop.updateMany({
      where: { id: loopId, leaseOwner: owner },
      data: {
        inflightIteration: number,
        inflightAttempt: attempt,
        inflightStartedAt: now,
        inflightAgent: Prisma.DbNull,
        lastActivityAt: now,
        status: "running",
        nextRunAt: null,
        // A fork's first own iteration is not number 1: a loop that never started starts now.
        ...((number === 1 && attempt === 1) || !loop?.startedAt ? { startedAt: now } : {}),
      },
    });
    if (updated.count !== 1) throw new LeaseLostError(loopId);
    return attempt;
  });
}

/**
 * After a crash: the attempt that was in flight is recorded as interrupted,
 * with the spend its agent reported before the crash, and the next attempt of
 * the same number will run. Returns the recorded attempt, the agent's process
 * group (to make sure it is gone) and the spend of every crashed attempt of
 * this number (the checkpoint predates them all), or null when nothing was
 * in flight.
 */
export async function recordCrashedAttempt(db: Db, loopId: string, owner: string, now: Date, agentId: string) {
  return inTransaction(db, async (tx) => {
    // Ordered against a late spend report of the same attempts (stranded-spend.repo.ts): one sees the other.
    await lockLoopRow(tx, loopId);
    const loop = await tx.loop.findUnique({ where: { id: loopId } });
    if (!loop || loop.leaseOwner !== owner || loop.inflightIteration == null) return null;
    const number = loop.inflightIteration;
    const attempt = loop.inflightAttempt ?? 1;
    const startedAt = loop.inflightStartedAt ?? now;
    const agent: InflightAgent = parseInflightAgent(loop.inflightAgent) ?? {};
    const spend = agent.spend;
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
          ...(spend
            ? { tokensIn: spend.input, tokensOut: spend.output, tokensCache: spend.cache, costUsd: spend.costUsd }
            : {}),
        },
      });
    }
    const crashed = await tx.iteration.aggregate({
      where: { loopId, number, status: "interrupted" },
      _sum: { tokensIn: true, tokensOut: true, tokensCache: true, costUsd: true },
    });
    await settleCountedSpend(tx, loopId, number, now);
    // The loop's cost equals the sum of its rows, also until the next safe point (which may never come:
    // another crash, a failed setup): the spend now on the interrupted row is added to the loop at once.
    // The next safe point writes the checkpoint's totals plus every interrupted row of this number, the same sum.
    const counted =
      spend && !existing
        ? {
            costUsd: { increment: spend.costUsd },
            tokensIn: { increment: spend.input },
            tokensOut: { increment: spend.output },
            tokensCache: { increment: spend.cache },
          }
        : {};
    const updated = await tx.loop.updateMany({
      where: { id: loopId, leaseOwner: owner },
      data: { inflightAttempt: attempt + 1, inflightAgent: Prisma.DbNull, version: { increment: 1 }, ...counted },
    });
    if (updated.count !== 1) throw new LeaseLostError(loopId);
    await appendEvents(tx, [
      {
        loopId,
        type: "iteration_interrupted",
        actor: "system",
        reason: "runtime stopped mid-iteration",
        payload: { number, attempt, ...(spend ? { costUsd: spend.costUsd } : {}) },
      },
    ]);
    return {
      number,
      attempt,
      group: agent.group ?? null,
      uncountedSpend: {
        input: crashed._sum.tokensIn ?? 0,
        output: crashed._sum.tokensOut ?? 0,
        cache: crashed._sum.tokensCache ?? 0,
        costUsd: crashed._sum.costUsd ?? 0,
      },
    };
  });
}

/** The checkpoint the loop row points at (the one written with its latest step), read as checkpointById reads it. */
export async function currentCheckpoint(db: Db, loopId: string) {
  const loop = await db.loop.findUnique({ where: { id: loopId }, select: { checkpointId: true } });
  return loop?.checkpointId ? checkpointById(db, loop.checkpointId) : null;
}

/** A checkpoint's stored form by id (a runtime that just claimed the loop knows which one its row points at). */
export async function checkpointById(
  db: Db,
  id: string,
): Promise<{ id: string; loopId: string; state: string; sha256: string } | null> {
  const lean = sqliteLean(db);
  const pg = lean ? null : pgLean(db);
  if (pg) return checkpointByIdOnPg(pg, id);
  if (!lean)
    return db.checkpoint.findUnique({ where: { id }, select: { id: true, loopId: true, state: true, sha256: true } });
  const row = await lean.run(
    (prepare) =>
      prepare(`SELECT "id", "loopId", "state", "sha256" FROM "Checkpoint" WHERE "id" = ?`).get(id) as
        { id: string; loopId: string; state: string; sha256: string } | undefined,
  );
  return row ?? null;
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
        // Nothing will resume the iteration that was in flight: a failed loop keeps no marker.
        inflightIteration: null,
        inflightAttempt: null,
        inflightStartedAt: null,
        inflightAgent: Prisma.DbNull,
        version: { increment: 1 },
      },
    });
    if (updated.count !== 1) throw new LeaseLostError(loopId);
    await appendEvents(tx, [
      { loopId, type: "halted", actor: "system", reason, payload: { stopType: "system_error", status: "failed" } },
    ]);
    await rejectPendingControls(tx, loopId, "failed", now);
  });
}

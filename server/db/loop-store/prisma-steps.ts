// The parts of the hot path both databases run through Prisma, one
// implementation each, called by both loop stores: they are rare (a crash, a
// failed loop) or one small fenced update whose cost is the fsync, not the query.
// Writes run in explicit transactions even when single statements: the SQLite
// adapter shares one connection, and only transactions wait for each other; a
// bare statement would otherwise land inside another open one.
import type { Db } from "../prisma-client";
import { Prisma } from "../generated/sqlite/client";
import { parseInflightAgent, type InflightAgent } from "../agent-runs.repo";
import { appendEvents } from "../events.repo";
import { createInterruptedAttempt } from "../interrupted-attempt";
import { rejectPendingControls } from "../controls.repo";
import { LeaseLostError } from "../loop-lease.repo";
import { lockLoopRow, settleCountedSpend } from "../stranded-spend.repo";
import { inTransaction } from "../tx";
import type { CrashedAttempt, HeldLease } from "./loop-store.port";

/**
 * After a crash: the attempt that was in flight is recorded as interrupted,
 * with the spend its agent reported before the crash, and the next attempt of
 * the same number will run. Returns the recorded attempt, the agent's process
 * group (to make sure it is gone) and the spend of every crashed attempt of
 * this number (the checkpoint predates them all), or null when nothing was
 * in flight.
 */
export async function recordCrashedAttempt(
  db: Db,
  loopId: string,
  owner: string,
  now: Date,
  agentId: string,
): Promise<CrashedAttempt | null> {
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
      await createInterruptedAttempt(tx, {
        loopId,
        number,
        attempt,
        agentId,
        startedAt,
        now,
        error: "the runtime stopped before this attempt finished (crash or lost lease); it runs again",
        ...(spend
          ? {
              counts: {
                tokensIn: spend.input,
                tokensOut: spend.output,
                tokensCache: spend.cache,
                costUsd: spend.costUsd,
              },
            }
          : {}),
      });
    }
    // A row already there (a late report or a spool stored it first, stranded-spend.repo.ts) is raised to what
    // the tracker wrote, never lowered: the larger of the two reports counts, once.
    const raised = existing?.status === "interrupted" && spend ? raiseBy(existing, spend) : null;
    if (raised && existing) {
      await tx.iteration.update({
        where: { id: existing.id },
        data: {
          costUsd: existing.costUsd + raised.costUsd,
          tokensIn: existing.tokensIn + raised.input,
          tokensOut: existing.tokensOut + raised.output,
          tokensCache: existing.tokensCache + raised.cache,
        },
      });
    }
    const added = existing ? raised : spend;
    const crashed = await tx.iteration.aggregate({
      where: { loopId, number, status: "interrupted" },
      _sum: { tokensIn: true, tokensOut: true, tokensCache: true, costUsd: true },
    });
    await settleCountedSpend(tx, loopId, number, now);
    // The loop's cost equals the sum of its rows, also until the next safe point (which may never come:
    // another crash, a failed setup): the spend now on the interrupted row is added to the loop at once.
    // The next safe point writes the checkpoint's totals plus every interrupted row of this number, the same sum.
    const counted = added
      ? {
          costUsd: { increment: added.costUsd },
          tokensIn: { increment: added.input },
          tokensOut: { increment: added.output },
          tokensCache: { increment: added.cache },
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

type Spend = NonNullable<InflightAgent["spend"]>;

/** What `spend` adds to a stored row, field by field (never less than nothing); null when nothing. */
function raiseBy(
  row: { costUsd: number; tokensIn: number; tokensOut: number; tokensCache: number },
  spend: Spend,
): Spend | null {
  const diff = {
    input: Math.max(0, spend.input - row.tokensIn),
    output: Math.max(0, spend.output - row.tokensOut),
    cache: Math.max(0, spend.cache - row.tokensCache),
    costUsd: Math.max(0, spend.costUsd - row.costUsd),
  };
  return diff.costUsd > 0 || diff.input + diff.output + diff.cache > 0 ? diff : null;
}

/** Gives up on a loop the runtime cannot run (bad checkpoint, unusable config). */
export async function failLoop(db: Db, loopId: string, owner: string, reason: string, now: Date): Promise<void> {
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

/**
 * The fence an agent launch passes through (issue 32): in one statement, the
 * attempt about to run must still be the one in flight, under this claim
 * (owner), on a lease that has not expired; and it renews the lease from now,
 * so the launched agent has a whole TTL before anyone may claim. A runtime
 * whose lease expired (a stalled heartbeat under load) is refused here even
 * when nobody has claimed the loop yet, so it can never launch beside the
 * agent of the runtime that claims next. Returns whether the launch may go.
 */
export async function fenceLaunch(
  db: Db,
  loopId: string,
  owner: string,
  attempt: { number: number; attempt: number },
  now: Date,
  ttlMs: number,
): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    const updated = await tx.loop.updateMany({
      where: {
        id: loopId,
        leaseOwner: owner,
        leaseExpiresAt: { gt: now },
        inflightIteration: attempt.number,
        inflightAttempt: attempt.attempt,
      },
      data: { leaseExpiresAt: new Date(now.getTime() + ttlMs), lastHeartbeatAt: now },
    });
    return updated.count === 1;
  });
}

/** The id of the checkpoint the loop row points at. */
export async function currentCheckpointId(db: Db, loopId: string): Promise<string | null> {
  const loop = await db.loop.findUnique({ where: { id: loopId }, select: { checkpointId: true } });
  return loop?.checkpointId ?? null;
}

/** Which leases a renewal kept: a row came back naming the lease's own owner. */
export function leasesKept<L extends HeldLease>(
  leases: readonly L[],
  rows: { id: string; leaseOwner: string | null }[],
) {
  const ownerOf = new Map(rows.map((r) => [r.id, r.leaseOwner]));
  const lost = leases.filter((l) => ownerOf.get(l.loopId) !== l.owner);
  const keptIds = [...new Set(leases.filter((l) => ownerOf.get(l.loopId) === l.owner).map((l) => l.loopId))];
  return { lost, keptIds };
}

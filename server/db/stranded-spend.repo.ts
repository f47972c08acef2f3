// Spend reported too late for its runtime to store (issue 32): the agent
// answered while its runtime was frozen, or after the runtime lost its lease,
// so the step commit is refused and the attempt is (or will be) recorded as
// interrupted by the next owner with whatever was on the loop row then.
//
// The runtime that still holds the report stores it here, unfenced by the
// lease but keyed by (iteration, attempt), in one transaction:
// - the attempt's interrupted row is raised to what the agent reported (or
//   created, when nobody recorded the crash yet), and the loop's cost by the
//   difference, so the loop's cost stays the sum of its rows;
// - a `record_spend` request carries the difference to the runtime that owns
//   the loop: its checkpoint does not count it yet, and the next safe point
//   writes the loop's cost from the checkpoint. The owner folds it into its
//   snapshot and settles the request in the commit that stores it, so it is
//   counted once whoever crashes when.
// A crash recorded after this (recordCrashedAttempt) sums the raised row
// itself, and settles the request in that same transaction (settleCountedSpend).
// Both take the loop row's lock first, so one of them always sees the other.
import type { Db } from "./prisma-client";
import { appendEvents } from "./events.repo";
import { insertControlRequest } from "./controls.repo";
import { createInterruptedAttempt } from "./interrupted-attempt";
import { inTransaction, type Tx } from "./tx";

export const SPEND_REPORT_KIND = "record_spend";

export interface StrandedSpend {
  input: number;
  output: number;
  cache: number;
  costUsd: number;
}

/** The payload of a `record_spend` request: the difference not yet counted, and whose attempt it was. */
export interface SpendReport extends StrandedSpend {
  number: number;
  attempt: number;
}

const ENDED = new Set(["stopped", "completed", "failed"]);

/** Who held the report: the runtime itself after a lost lease, or its spawn helper's spool after it died. */
export type StrandedSource = "late_report" | "spool";

const WORDS: Record<StrandedSource, { agentId: string; error: string; reason: string }> = {
  late_report: {
    agentId: "stranded",
    error: "the runtime lost its lease before it could store this attempt; it runs again",
    reason: "spend an agent reported after its runtime lost the lease",
  },
  spool: {
    agentId: "spooled",
    error: "the runtime died before it could store this attempt (its spawn helper kept the spend); it runs again",
    reason: "spend an agent reported before its runtime died, kept by the spawn helper",
  },
};

/** Takes the loop row's lock (a no-op update) so the spend paths order against each other. */
export async function lockLoopRow(tx: Tx, loopId: string): Promise<boolean> {
  const locked = await tx.loop.updateMany({ where: { id: loopId }, data: { version: { increment: 0 } } });
  return locked.count === 1;
}

/**
 * Stores what an agent reported for an attempt its runtime could not commit.
 * Returns the difference it added (zero when the row already counted it).
 */
export async function recordStrandedSpend(
  db: Db,
  loopId: string,
  where: { number: number; attempt: number; startedAt: Date },
  spend: StrandedSpend,
  now: Date,
  source: StrandedSource = "late_report",
): Promise<StrandedSpend | null> {
  const words = WORDS[source];
  return inTransaction(db, async (tx) => {
    if (!(await lockLoopRow(tx, loopId))) return null;
    const { number, attempt } = where;
    const row = await tx.iteration.findUnique({ where: { loopId_number_attempt: { loopId, number, attempt } } });
    // A stored attempt that is not interrupted was committed with its spend: nothing is missing.
    if (row && row.status !== "interrupted") return null;
    const diff: StrandedSpend = {
      input: Math.max(0, spend.input - (row?.tokensIn ?? 0)),
      output: Math.max(0, spend.output - (row?.tokensOut ?? 0)),
      cache: Math.max(0, spend.cache - (row?.tokensCache ?? 0)),
      costUsd: Math.max(0, spend.costUsd - (row?.costUsd ?? 0)),
    };
    if (diff.costUsd === 0 && diff.input + diff.output + diff.cache === 0) return null;
    const counts = {
      tokensIn: row ? row.tokensIn + diff.input : diff.input,
      tokensOut: row ? row.tokensOut + diff.output : diff.output,
      tokensCache: row ? row.tokensCache + diff.cache : diff.cache,
      costUsd: row ? row.costUsd + diff.costUsd : diff.costUsd,
    };
    if (row) {
      await tx.iteration.update({ where: { id: row.id }, data: counts });
    } else {
      await createInterruptedAttempt(tx, {
        loopId,
        number,
        attempt,
        agentId: words.agentId,
        startedAt: where.startedAt,
        now,
        error: words.error,
        counts,
      });
    }
    const loop = await tx.loop.update({
      where: { id: loopId },
      data: {
        costUsd: { increment: diff.costUsd },
        tokensIn: { increment: diff.input },
        tokensOut: { increment: diff.output },
        tokensCache: { increment: diff.cache },
      },
      select: { status: true, leaseOwner: true },
    });
    // An ended loop nobody holds has no next safe point: the row and the cost are all there is to write.
    const settled = ENDED.has(loop.status) && loop.leaseOwner === null;
    const report: SpendReport = { number, attempt, ...diff };
    await insertControlRequest(tx, {
      id: `spend:${loopId}:${number}:${attempt}:${now.getTime()}`,
      loopId,
      kind: SPEND_REPORT_KIND,
      payload: report,
      actorId: null,
      actor: "system",
      reason: words.reason,
      ...(settled ? { status: "applied" as const, result: "counted on the ended loop" } : {}),
    });
    await appendEvents(tx, [
      {
        loopId,
        type: "spend_recorded",
        actor: "system",
        reason: words.reason,
        payload: { ...report, source },
      },
    ]);
    return diff;
  });
}

/**
 * Inside recordCrashedAttempt, after it summed the interrupted rows of `number` (the spend a resuming
 * runtime folds in): the reports of those attempts are in that sum, so they are settled, not folded again.
 */
export async function settleCountedSpend(tx: Tx, loopId: string, number: number, now: Date) {
  const pending = await tx.controlRequest.findMany({
    where: { loopId, kind: SPEND_REPORT_KIND, status: "pending" },
    select: { id: true, payload: true },
  });
  const counted = pending.filter((p) => spendReportOf(p.payload)?.number === number).map((p) => p.id);
  if (!counted.length) return;
  await tx.controlRequest.updateMany({
    where: { id: { in: counted }, status: "pending" },
    data: { status: "applied", result: "counted with the interrupted attempts", appliedAt: now },
  });
}

export function spendReportOf(payload: unknown): SpendReport | null {
  if (typeof payload !== "object" || payload === null) return null;
  const p = payload as Record<string, unknown>;
  const keys = ["number", "attempt", "input", "output", "cache", "costUsd"] as const;
  return keys.every((k) => typeof p[k] === "number") ? (p as unknown as SpendReport) : null;
}

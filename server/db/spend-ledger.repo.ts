// Every dollar counted (issue 32): what a loop's agents reported against what
// the loop records. The loop row's cost is written from the engine's ledger at
// each safe point; each attempt's row (completed or interrupted) carries what
// its agent spent; the in-flight agent's last report sits on the loop row
// until its attempt gets a row. The invariant: the loop's cost equals the sum
// of its rows, always (also between a crash and the next safe point).
import type { Db } from "./prisma-client";
import { parseInflightAgent } from "./agent-runs.repo";

export interface SpendLedger {
  loopId: string;
  /** What the loop row records (shown as the loop's cost, checked against its budget). */
  recordedUsd: number;
  /** The sum of its attempt rows, completed and interrupted. */
  rowsUsd: number;
  /** What the agent in flight has reported so far (not yet on any row). */
  inflightUsd: number;
  rows: number;
  interruptedRows: number;
  interruptedUsd: number;
}

/** Null when the loop does not exist. */
export async function loopSpendLedger(db: Db, loopId: string): Promise<SpendLedger | null> {
  const loop = await db.loop.findUnique({ where: { id: loopId }, select: { costUsd: true, inflightAgent: true } });
  if (!loop) return null;
  const [all, interrupted] = await Promise.all([
    db.iteration.aggregate({ where: { loopId }, _sum: { costUsd: true }, _count: { _all: true } }),
    db.iteration.aggregate({
      where: { loopId, status: "interrupted" },
      _sum: { costUsd: true },
      _count: { _all: true },
    }),
  ]);
  return {
    loopId,
    recordedUsd: loop.costUsd,
    rowsUsd: all._sum.costUsd ?? 0,
    inflightUsd: parseInflightAgent(loop.inflightAgent)?.spend?.costUsd ?? 0,
    rows: all._count._all,
    interruptedRows: interrupted._count._all,
    interruptedUsd: interrupted._sum.costUsd ?? 0,
  };
}

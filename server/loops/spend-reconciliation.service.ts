// The reconciliation view (issue 32): what a loop's agents reported against
// what the loop records. Reported is every attempt row plus what the agent in
// flight has said so far; recorded is the loop's cost. They differ only while
// an attempt runs (its spend reaches a row at the next safe point, or at the
// next owner's recovery after a crash); the loop's cost and its rows never do.
import type { Database } from "../db/client";
import { loopSpendLedger } from "../db/spend-ledger.repo";
import { notFound } from "../errors";

/** Sums of float dollars: equal when within a millionth of a cent. */
const EPSILON = 1e-8;
const cents = (usd: number) => Math.round(usd * 1e8) / 1e8;

export async function spendReconciliation(db: Database, loopId: string) {
  const ledger = await loopSpendLedger(db.prisma, loopId);
  if (!ledger) throw notFound("Loop", loopId);
  const reportedUsd = ledger.rowsUsd + ledger.inflightUsd;
  return {
    loopId,
    reportedUsd: cents(reportedUsd),
    recordedUsd: cents(ledger.recordedUsd),
    rowsUsd: cents(ledger.rowsUsd),
    inflightUsd: cents(ledger.inflightUsd),
    uncountedUsd: cents(reportedUsd - ledger.recordedUsd),
    rows: ledger.rows,
    interruptedRows: ledger.interruptedRows,
    interruptedUsd: cents(ledger.interruptedUsd),
    /** The invariant: the loop's cost is the sum of its rows. */
    consistent: Math.abs(ledger.recordedUsd - ledger.rowsUsd) < EPSILON,
  };
}

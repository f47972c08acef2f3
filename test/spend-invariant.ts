// The spend invariant of issue 32, for chaos and crash tests: a loop's cost
// equals the sum of its attempt rows (completed and interrupted), always.
import { expect } from "vitest";
import type { Db } from "../server/db/client";
import { loopSpendLedger } from "../server/db/spend-ledger.repo";

export async function expectLoopCostMatchesRows(prisma: Db, loopId: string) {
  const ledger = await loopSpendLedger(prisma, loopId);
  expect(ledger, `loop ${loopId} exists`).not.toBeNull();
  expect(
    Math.abs(ledger!.recordedUsd - ledger!.rowsUsd),
    `loop ${loopId}: cost ${ledger!.recordedUsd} vs rows ${ledger!.rowsUsd}`,
  ).toBeLessThan(1e-8);
  return ledger!;
}

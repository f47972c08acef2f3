// Cost per verified task over a period (docs/races.md): the loops created in [from, to), their spend
// (a loop's cost is the sum of its rows: retries, judges and verifiers included) over their verified
// outcomes, per loop, per race, per agent and per provider account. Grouping is the engine's pure
// function; storage only reads the rows.
import { costPerVerified, costPerVerifiedBy, isVerifiedOutcome } from "../engine";
import type { Database } from "../db/client";
import { landedLoopIds } from "../db/landing.repo";
import { loopOutcomesIn } from "../db/races.repo";
import { agentLabelOfConfig } from "./agent-label";
import { loopAccounts } from "./usage-account";

/**
 * The figure for one loop, as its page header, the list and the report show it. `landed`: it landed
 * through the merge queue, a verified outcome whatever its status says (a loop an operator queued).
 */
export function loopCostPerVerified(loop: { costUsd: number; status: string; landed: boolean }) {
  const verified = isVerifiedOutcome(loop);
  return { verified, costPerVerifiedUsd: verified ? loop.costUsd : null };
}

export async function costPerVerifiedReport(db: Database, period: { from: Date; to: Date; raceId?: string }) {
  const loops = await loopOutcomesIn(db.prisma, period);
  const landed = await landedLoopIds(
    db.prisma,
    loops.map((r) => r.id),
  );
  const rows = loops.map((r) => ({
    ...r,
    landed: landed.has(r.id),
    agent: agentLabelOfConfig(r.config),
    account: loopAccounts(r.config).primary,
  }));
  return {
    from: period.from.toISOString(),
    to: period.to.toISOString(),
    total: costPerVerified(rows),
    byRace: costPerVerifiedBy(rows, (r) => r.raceId),
    byAgent: costPerVerifiedBy(rows, (r) => r.agent),
    byAccount: costPerVerifiedBy(rows, (r) => r.account),
  };
}

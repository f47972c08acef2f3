// Races (docs/races.md): a Race row and its contender loops (Loop.raceId). The winner is written once,
// by a compare-and-set from null, so two runtimes settling the same race at once pick one winner.
import type { Db } from "./client";
import type { Tx } from "./tx";

export interface NewRaceRow {
  id: string;
  name: string;
  goal: string;
  policy: string;
  targetBranch: string | null;
  createdById: string | null;
  createdAt: Date;
}

export async function insertRace(tx: Db | Tx, row: NewRaceRow): Promise<void> {
  await tx.race.create({ data: row });
}

export async function raceById(db: Db | Tx, id: string) {
  return db.race.findUnique({ where: { id } });
}

export async function raceOfLoop(db: Db | Tx, loopId: string): Promise<string | null> {
  const row = await db.loop.findUnique({ where: { id: loopId }, select: { raceId: true } });
  return row?.raceId ?? null;
}

/** The contenders' rows the compare view and the settling read, in the order they were created. */
export async function raceContenders(db: Db | Tx, raceId: string) {
  return db.loop.findMany({
    where: { raceId },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: {
      id: true,
      name: true,
      agentKind: true,
      config: true,
      status: true,
      stopType: true,
      stopReason: true,
      iteration: true,
      costUsd: true,
      tokensIn: true,
      tokensOut: true,
      tokensCache: true,
      bestScore: true,
      lastScore: true,
      leaseOwner: true,
      createdAt: true,
      startedAt: true,
      finishedAt: true,
    },
  });
}

/** Sets the winner if none is set yet; false when another decision came first. */
export async function claimRaceWinner(
  tx: Db | Tx,
  raceId: string,
  decision: { winnerLoopId: string; decidedAt: Date; decidedBy: string; decisionReason: string },
): Promise<boolean> {
  const updated = await tx.race.updateMany({ where: { id: raceId, winnerLoopId: null }, data: decision });
  return updated.count === 1;
}

/** Each contender's iterations as the compare chart reads them (the covering index serves it). */
export async function raceIterationPoints(db: Db | Tx, loopIds: string[]) {
  if (loopIds.length === 0) return [];
  return db.iteration.findMany({
    where: { loopId: { in: loopIds } },
    orderBy: [{ loopId: "asc" }, { number: "asc" }, { attempt: "asc" }],
    select: { loopId: true, number: true, attempt: true, status: true, meanScore: true, costUsd: true },
  });
}

/** The last finished (not interrupted) iteration's scores of each loop: the verdict lines live there. */
export async function lastScoredIterations(db: Db | Tx, loopIds: string[]) {
  const rows = await Promise.all(
    loopIds.map((loopId) =>
      db.iteration.findFirst({
        where: { loopId, status: { not: "interrupted" } },
        orderBy: [{ number: "desc" }, { attempt: "desc" }],
        select: { loopId: true, number: true, scores: true, verification: true },
      }),
    ),
  );
  return rows.filter((r) => r !== null);
}

export async function listRaces(db: Db, limit: number) {
  return db.race.findMany({ orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: limit });
}

/**
 * The loops whose outcome the cost-per-verified aggregation reads: those created in [from, to),
 * optionally of one race. Only what the figure and its grouping need.
 */
export async function loopOutcomesIn(db: Db, filter: { from: Date; to: Date; raceId?: string }) {
  return db.loop.findMany({
    where: {
      createdAt: { gte: filter.from, lt: filter.to },
      ...(filter.raceId ? { raceId: filter.raceId } : {}),
      status: { not: "draft" },
    },
    select: { id: true, raceId: true, agentKind: true, config: true, status: true, costUsd: true, createdById: true },
  });
}

/** Races with a completed contender but no winner: what a crash between a loop's end and its settling left. */
export async function undecidedRacesWithVerified(db: Db, limit: number): Promise<string[]> {
  const rows = await db.loop.findMany({
    where: { raceId: { not: null }, status: "completed" },
    select: { raceId: true },
    distinct: ["raceId"],
    take: limit * 4,
  });
  const ids = rows.map((r) => r.raceId!).filter(Boolean);
  if (ids.length === 0) return [];
  const open = await db.race.findMany({
    where: { id: { in: ids }, winnerLoopId: null, policy: "first_verified" },
    select: { id: true },
    take: limit,
  });
  return open.map((r) => r.id);
}

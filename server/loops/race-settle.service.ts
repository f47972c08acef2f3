// Deciding a race (docs/races.md). Under the first_verified policy the first contender to complete
// (completion needs the full evidence, never the agent's claim) wins when its loop ends; under the
// operator policy the operator picks a verified contender. Either way the winner is written once
// (compare-and-set), every contender's audit log gets a race_decided event with who and why, the
// others are stopped through the ordinary control path (a kill that aborts a running agent, then a
// terminate that ends the loop: stored requests with their own audit events), and the winner goes
// to the merge queue.
import { appendEvents } from "../db/events.repo";
import { claimRaceWinner, raceById, raceContenders, raceOfLoop, undecidedRacesWithVerified } from "../db/races.repo";
import { inTransaction } from "../db/tx";
import { conflict, notFound } from "../errors";
import { notifyEventsWritten } from "../events/event-wakeups";
import { isVerifiedOutcome } from "../engine";
import { isTerminal } from "./control-rules";
import { requestControl } from "./loop-controls.service";
import { actorName, type ActingAs, type LoopServices } from "./loop-services";
import { landRaceWinner, type RaceLanding } from "./race-landing";

/** Who decides a race under its first_verified policy, as the audit log names it. */
export const RACE_POLICY_ACTOR = { id: null, email: "race policy", name: "Race policy", role: "operator" } as const;

export interface RaceDecision {
  raceId: string;
  winnerLoopId: string;
  stopped: string[];
  landing: RaceLanding;
}

type Contender = Awaited<ReturnType<typeof raceContenders>>[number];

/** The first verified contender: the earliest to finish among those that completed. */
export function firstVerified(contenders: readonly Contender[]): Contender | null {
  const verified = contenders.filter((c) => isVerifiedOutcome(c));
  verified.sort(
    (a, b) => (a.finishedAt?.getTime() ?? Infinity) - (b.finishedAt?.getTime() ?? Infinity) || (a.id < b.id ? -1 : 1),
  );
  return verified[0] ?? null;
}

/** After a loop ended: if it is a contender, settle its race. Never throws (a slice calls it). */
export async function settleRaceAfterEnd(svc: LoopServices, loopId: string): Promise<RaceDecision | null> {
  try {
    const raceId = await raceOfLoop(svc.db.prisma, loopId);
    return raceId ? await settleRace(svc, raceId) : null;
  } catch (error) {
    console.warn(`race settling after loop ${loopId}: ${String(error)}`);
    return null;
  }
}

/** Applies the first_verified policy: decides the race if a contender is verified and none won yet. */
export async function settleRace(svc: LoopServices, raceId: string): Promise<RaceDecision | null> {
  const race = await raceById(svc.db.prisma, raceId);
  if (!race || race.winnerLoopId !== null || race.policy !== "first_verified") return null;
  const contenders = await raceContenders(svc.db.prisma, raceId);
  const winner = firstVerified(contenders);
  if (!winner) return null;
  const reason = `${winner.name || winner.id} passed the full evidence first`;
  return decideRace(svc, race, contenders, winner, { actor: { ...RACE_POLICY_ACTOR }, reason });
}

/** Settles the races a crash left undecided (a winner completed, the process died before settling). */
export async function settleOpenRaces(svc: LoopServices, limit = 20): Promise<number> {
  let settled = 0;
  for (const id of await undecidedRacesWithVerified(svc.db.prisma, limit)) {
    if (await settleRace(svc, id).catch(() => null)) settled += 1;
  }
  return settled;
}

/** The operator picks the winner (any policy, while no winner is set): a verified contender only. */
export async function pickRaceWinner(svc: LoopServices, raceId: string, loopId: string, acting: ActingAs) {
  const race = await raceById(svc.db.prisma, raceId);
  if (!race) throw notFound("Race", raceId);
  if (race.winnerLoopId !== null) throw conflict("The race is already decided");
  const contenders = await raceContenders(svc.db.prisma, raceId);
  const winner = contenders.find((c) => c.id === loopId);
  if (!winner) throw notFound("Contender", loopId);
  if (!isVerifiedOutcome(winner)) {
    throw conflict(`This contender has not passed the evidence (it is ${winner.status}); pick a verified one`);
  }
  const reason = acting.reason?.trim() || `the operator picked ${winner.name || winner.id}`;
  const decision = await decideRace(svc, race, contenders, winner, { ...acting, reason });
  if (!decision) throw conflict("The race was decided meanwhile");
  return decision;
}

async function decideRace(
  svc: LoopServices,
  race: { id: string; targetBranch: string | null },
  contenders: readonly Contender[],
  winner: Contender,
  acting: ActingAs & { reason: string },
): Promise<RaceDecision | null> {
  const raceId = race.id;
  const actor = actorName(acting.actor);
  const claimed = await inTransaction(svc.db.prisma, async (tx) => {
    const won = await claimRaceWinner(tx, raceId, {
      winnerLoopId: winner.id,
      decidedAt: new Date(svc.engine.now()),
      decidedBy: actor,
      decisionReason: acting.reason,
    });
    if (!won) return false;
    await appendEvents(
      tx,
      contenders.map((c) => ({
        loopId: c.id,
        type: "race_decided",
        actorId: acting.actor.id,
        actor,
        reason: acting.reason,
        payload: { raceId, winnerLoopId: winner.id, won: c.id === winner.id },
      })),
    );
    return true;
  });
  if (!claimed) return null;
  void notifyEventsWritten(svc.db);
  const stopReason = `race decided: ${acting.reason}`;
  const stopped: string[] = [];
  for (const c of contenders) {
    if (c.id === winner.id || isTerminal(c.status) || c.status === "draft") continue;
    await stopContender(svc, c.id, { actor: acting.actor, reason: stopReason });
    stopped.push(c.id);
  }
  const landing = await landRaceWinner(svc, winner.id, race.targetBranch, {
    actor: acting.actor,
    reason: acting.reason,
  });
  return { raceId, winnerLoopId: winner.id, stopped, landing };
}

/**
 * Stops a losing contender: a kill aborts an agent that is running now (the kill watch), then a
 * terminate ends the loop. A kill the loop's rules refuse (already paused, interrupts disabled)
 * still leaves the terminate, which every live loop accepts.
 */
async function stopContender(svc: LoopServices, loopId: string, acting: ActingAs) {
  await requestControl(svc, loopId, { kind: "kill" }, acting).catch(() => undefined);
  await requestControl(svc, loopId, { kind: "terminate", stopType: "race_lost" }, acting).catch((error: unknown) => {
    console.warn(`race: could not stop loop ${loopId}: ${String(error)}`);
  });
}

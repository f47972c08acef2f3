// The race compare view's data (docs/races.md): each contender's outcome, spend, time, tokens, score
// per iteration, the verdict lines of its last graded iteration, and cost per verified task (its own,
// and the race's: every contender's spend over the race's verified outcomes).
import { asLoopRowStatus, asStopType, costPerVerified } from "../engine";
import type { Database } from "../db/client";
import { landedLoopIds } from "../db/landing.repo";
import { lastScoredIterations, listRaces, raceById, raceContenders, raceIterationPoints } from "../db/races.repo";
import { notFound } from "../errors";
import { agentLabelOfConfig } from "./agent-label";
import { loopCostPerVerified } from "./cost-per-verified.service";

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : {});

/** The ✓/✗ lines each graded check of an iteration stored, prefixed with the check's name. */
export function verdictLines(scores: unknown): { ok: boolean; text: string }[] {
  const lines: { ok: boolean; text: string }[] = [];
  for (const [check, value] of Object.entries(obj(scores))) {
    const grading = obj(obj(obj(value).tests).grading);
    if (!Array.isArray(grading.lines)) continue;
    for (const line of grading.lines) {
      const l = obj(line);
      if (typeof l.text === "string") lines.push({ ok: l.ok === true, text: `${check}: ${l.text}` });
    }
  }
  return lines;
}

export async function raceCompare(db: Database, raceId: string) {
  const race = await raceById(db.prisma, raceId);
  if (!race) throw notFound("Race", raceId);
  const rows = await raceContenders(db.prisma, raceId);
  const ids = rows.map((c) => c.id);
  const [points, last, landed] = await Promise.all([
    raceIterationPoints(db.prisma, ids),
    lastScoredIterations(db.prisma, ids),
    landedLoopIds(db.prisma, ids),
  ]);
  const contenders = rows.map((c) => ({ ...c, landed: landed.has(c.id) }));
  return {
    id: race.id,
    name: race.name,
    goal: race.goal,
    policy: race.policy as "first_verified" | "operator",
    targetBranch: race.targetBranch,
    createdAt: race.createdAt.toISOString(),
    winnerLoopId: race.winnerLoopId,
    decidedAt: race.decidedAt?.toISOString() ?? null,
    decidedBy: race.decidedBy,
    decisionReason: race.decisionReason,
    costPerVerified: costPerVerified(contenders),
    contenders: contenders.map((c) => {
      const lastRow = last.find((r) => r.loopId === c.id);
      const end = c.finishedAt ?? null;
      return {
        id: c.id,
        name: c.name,
        agent: agentLabelOfConfig(c.config),
        status: asLoopRowStatus(c.status),
        stopType: asStopType(c.stopType),
        stopReason: c.stopReason,
        iteration: c.iteration,
        costUsd: c.costUsd,
        tokensIn: c.tokensIn,
        tokensOut: c.tokensOut,
        tokensCache: c.tokensCache,
        bestScore: c.bestScore,
        startedAt: c.startedAt?.toISOString() ?? null,
        finishedAt: end?.toISOString() ?? null,
        durationMs: c.startedAt && end ? end.getTime() - c.startedAt.getTime() : null,
        ...loopCostPerVerified(c),
        verdictIteration: lastRow?.number ?? null,
        verdictLines: lastRow ? verdictLines(lastRow.scores) : [],
        points: points
          .filter((p) => p.loopId === c.id)
          .map((p) => ({ number: p.number, attempt: p.attempt, status: p.status, meanScore: p.meanScore })),
      };
    }),
  };
}

export async function raceList(db: Database, limit: number) {
  const races = await listRaces(db.prisma, limit);
  return Promise.all(
    races.map(async (r) => {
      const contenders = await raceContenders(db.prisma, r.id);
      return {
        id: r.id,
        name: r.name,
        goal: r.goal,
        policy: r.policy as "first_verified" | "operator",
        createdAt: r.createdAt.toISOString(),
        winnerLoopId: r.winnerLoopId,
        contenders: contenders.length,
        costPerVerified: costPerVerified(contenders),
      };
    }),
  );
}

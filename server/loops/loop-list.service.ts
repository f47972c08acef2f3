// The loops list as the dashboard needs it.
import type { Database } from "../db/client";
import { countLoops, listLoops, type LoopListQuery } from "../db/loops.repo";

export interface LoopSummary {
  id: string;
  /** The status to show: "interrupting" while an interrupt or kill waits for its safe point. */
  displayStatus: string;
  name: string;
  goal: string;
  agentKind: string;
  status: string;
  stopType: string | null;
  stopReason: string | null;
  health: string;
  iteration: number;
  maxIterations: number;
  costUsd: number;
  budgetUsd: number | null;
  bestScore: number | null;
  lastScore: number | null;
  lastActivityAt: Date;
  createdAt: Date;
}

export async function listLoopSummaries(db: Database, query: LoopListQuery) {
  const [page, total] = await Promise.all([listLoops(db.prisma, query), countLoops(db.prisma, query)]);
  const interrupting = new Set(
    (
      await db.prisma.controlRequest.findMany({
        where: { loopId: { in: page.items.map((l) => l.id) }, status: "pending", kind: { in: ["interrupt", "kill"] } },
        select: { loopId: true },
      })
    ).map((c) => c.loopId),
  );
  const items: LoopSummary[] = page.items.map((l) => ({
    id: l.id,
    displayStatus: interrupting.has(l.id) && ["running", "queued", "waiting"].includes(l.status) ? "interrupting" : l.status,
    name: l.name,
    goal: l.goal,
    agentKind: l.agentKind,
    status: l.status,
    stopType: l.stopType,
    stopReason: l.stopReason,
    health: l.health,
    iteration: l.iteration,
    maxIterations: l.maxIterations,
    costUsd: l.costUsd,
    budgetUsd: l.budgetUsd,
    bestScore: l.bestScore,
    lastScore: l.lastScore,
    lastActivityAt: l.lastActivityAt,
    createdAt: l.createdAt,
  }));
  return { items, nextCursor: page.nextCursor, total };
}

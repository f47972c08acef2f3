// The loops list as the dashboard needs it.
import type { Database } from "../db/client";
import { countLoops, listLoops, type LoopListQuery } from "../db/loops.repo";

export interface LoopSummary {
  id: string;
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
  const items: LoopSummary[] = page.items.map((l) => ({
    id: l.id,
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

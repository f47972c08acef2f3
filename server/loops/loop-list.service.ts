// The loops list as the dashboard needs it: the row, an honest in-between
// status, a short score trail for the sparkline and what the runaway and
// silent-agent alarms are judged on (recent iteration pace, heartbeats).
import type { Database } from "../db/client";
import { countLoops, listLoops, type LoopListQuery } from "../db/loops.repo";

/** Iterations per loop behind the sparkline and the pace alarms. */
export const TRAIL_LENGTH = 30;

export interface RecentIteration {
  number: number;
  meanScore: number | null;
  durationMs: number;
  finishedAt: Date;
}

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
  lastHeartbeatAt: Date | null;
  inflightStartedAt: Date | null;
  nextRunAt: Date | null;
  createdAt: Date;
  /** The last TRAIL_LENGTH iterations, oldest first. */
  recent: RecentIteration[];
}

async function recentIterations(db: Database, loopIds: string[]) {
  // One small indexed query per loop on the page (at most 100): a per-group
  // limit is not expressible in one portable Prisma query.
  const rows = await Promise.all(
    loopIds.map((loopId) =>
      db.prisma.iteration.findMany({
        where: { loopId },
        orderBy: [{ number: "desc" }, { attempt: "desc" }],
        take: TRAIL_LENGTH,
        select: { number: true, meanScore: true, durationMs: true, finishedAt: true },
      }),
    ),
  );
  return new Map(loopIds.map((id, i) => [id, rows[i]!.reverse()]));
}

export async function listLoopSummaries(db: Database, query: LoopListQuery) {
  const [page, total] = await Promise.all([listLoops(db.prisma, query), countLoops(db.prisma, query)]);
  const ids = page.items.map((l) => l.id);
  const [pending, recent] = await Promise.all([
    db.prisma.controlRequest.findMany({
      where: { loopId: { in: ids }, status: "pending", kind: { in: ["interrupt", "kill"] } },
      select: { loopId: true },
    }),
    recentIterations(db, ids),
  ]);
  const interrupting = new Set(pending.map((c) => c.loopId));
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
    lastHeartbeatAt: l.lastHeartbeatAt,
    inflightStartedAt: l.inflightStartedAt,
    nextRunAt: l.nextRunAt,
    createdAt: l.createdAt,
    recent: recent.get(l.id) ?? [],
  }));
  return { items, nextCursor: page.nextCursor, total };
}

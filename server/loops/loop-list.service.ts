// The loops list as the dashboard needs it: the row, an honest in-between
// status, a short score trail for the sparkline and what the runaway and
// silent-agent alarms are judged on (recent iteration pace, heartbeats).
import type { Database } from "../db/client";
import { recentIterations } from "../db/iterations.repo";
import { landedLoopIds } from "../db/landing.repo";
import { countLoops, listLoops, loopsWithPendingControl, type LoopListQuery } from "../db/loops.repo";
import { unsandboxedParts } from "../agents/sandbox/unsandboxed";
import { getEnv } from "../env";
import { liveSummaries } from "./live-iteration.service";
import { currentAlarms, type LoopAlarm } from "./loop-alarms.service";
import {
  asHealthState,
  asLoopRowStatus,
  asStopType,
  type HealthState,
  type LoopRowStatus,
  type StopType,
} from "../engine";
import { displayStatus } from "./control-rules";
import { loopCostPerVerified } from "./cost-per-verified.service";

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
  displayStatus: LoopRowStatus;
  name: string;
  goal: string;
  agentKind: string;
  status: LoopRowStatus;
  stopType: StopType | null;
  stopReason: string | null;
  health: HealthState;
  iteration: number;
  maxIterations: number;
  costUsd: number;
  /** Spend over verified outcomes: the cost when the loop completed, else null. */
  costPerVerifiedUsd: number | null;
  raceId: string | null;
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
  /** Parts that run without the sandbox (warning badge). */
  unsandboxed: string[];
  /** The iteration in flight, as its live rows last said ("last output 3 s ago"); null when none. */
  live: { iteration: number; phase: string; outputAt: number | null; heartbeatAt: number | null } | null;
  /** Alarms judged on the server now (runaway, silent agent, spend rate, needs attention). */
  alarms: LoopAlarm[];
}

export async function listLoopSummaries(db: Database, query: LoopListQuery) {
  const [page, total] = await Promise.all([listLoops(db.prisma, query), countLoops(db.prisma, query)]);
  const ids = page.items.map((l) => l.id);
  const running = page.items.filter((l) => l.inflightIteration !== null).map((l) => l.id);
  const [interrupting, recent, live, alarms, landed] = await Promise.all([
    loopsWithPendingControl(db.prisma, ids, ["interrupt", "kill"]),
    recentIterations(db.prisma, page.items, TRAIL_LENGTH),
    liveSummaries(db, running),
    currentAlarms(db.prisma, page.items, Date.now()),
    landedLoopIds(db.prisma, ids),
  ]);
  const sandboxMode = getEnv().RALPH_AGENT_SANDBOX;
  const items: LoopSummary[] = page.items.map((l) => ({
    id: l.id,
    displayStatus: displayStatus({ status: l.status, pendingKinds: interrupting.has(l.id) ? ["interrupt"] : [] }),
    name: l.name,
    goal: l.goal,
    agentKind: l.agentKind,
    status: asLoopRowStatus(l.status),
    stopType: asStopType(l.stopType),
    stopReason: l.stopReason,
    health: asHealthState(l.health),
    iteration: l.iteration,
    maxIterations: l.maxIterations,
    costUsd: l.costUsd,
    costPerVerifiedUsd: loopCostPerVerified({ ...l, landed: landed.has(l.id) }).costPerVerifiedUsd,
    raceId: l.raceId,
    budgetUsd: l.budgetUsd,
    bestScore: l.bestScore,
    lastScore: l.lastScore,
    lastActivityAt: l.lastActivityAt,
    lastHeartbeatAt: l.lastHeartbeatAt,
    inflightStartedAt: l.inflightStartedAt,
    nextRunAt: l.nextRunAt,
    createdAt: l.createdAt,
    recent: recent.get(l.id) ?? [],
    unsandboxed: unsandboxedParts(l.config, sandboxMode),
    live: live.get(l.id)?.iteration === l.inflightIteration ? live.get(l.id)! : null,
    alarms: alarms.get(l.id) ?? [],
  }));
  return { items, nextCursor: page.nextCursor, total };
}

// One loop as the detail page and the shared report need it: the row, the
// engine's own report and forecast from the current checkpoint, the series
// for the charts (built from the append-only iterations), the events the
// charts mark (health, interventions, breaker, handoffs, gates), and what
// awaits the operator. The stored definition leaves only redacted.
import {
  asHealthState,
  asLoopRowStatus,
  asStopType,
  buildReport,
  forecastBudget,
  remainingIterations,
} from "../engine";
import { recentApprovals } from "../db/approvals.repo";
import type { Database } from "../db/client";
import { pendingControlRequests } from "../db/controls.repo";
import { listEvents } from "../db/events.repo";
import { iterationPage, iterationSnapshotSha } from "../db/iterations.repo";
import { landedLoopIds } from "../db/landing.repo";
import { chartSeries, SERIES_POINTS } from "./chart-series";
import { loopById, loopDefinitionById, loopLineageById } from "../db/loops.repo";
import { notFound } from "../errors";
import { controlStateOf } from "./control-plan";
import { displayStatus, isTerminal, loopAvailability } from "./control-rules";
import { loopCostPerVerified } from "./cost-per-verified.service";
import { restoreStoredCheckpoint } from "./loop-snapshot";
import { redactStoredDefinition } from "./redact-definition";
import { unsandboxedParts } from "../agents/sandbox/unsandboxed";
import { getEnv } from "../env";
import { currentAlarms } from "./loop-alarms.service";
import { forkLineage, type ForkAncestor } from "./fork-lineage";
import { budgetThrottleOf } from "./budget-throttle";
import type { StoredDiagnostics, StoredScoreCell } from "./step-rows";

/** Events drawn on the charts; everything else is only in the audit log. */
export const MARKER_EVENT_TYPES = [
  "health_changed",
  "intervention",
  "breaker_changed",
  "handoff",
  "control_applied",
  "approval_requested",
  "approval_decided",
  "halted",
];
const MARKER_LIMIT = 500;
const APPROVAL_LIMIT = 20;

/**
 * `canOperate`: the caller's role may send controls; the availability of
 * every action then says so, and the UI needs no role check of its own.
 */
export async function getLoopDetail(db: Database, loopId: string, now: number, options: { canOperate?: boolean } = {}) {
  const loop = await loopById(db.prisma, loopId);
  if (!loop) throw notFound("Loop", loopId);
  // A fork's charts start with the parent's iterations up to the fork point: its totals already count them.
  const lineage = await forkLineage(db.prisma, loop);
  const [checkpoint, series, pendingControls, approvals, markerEvents, alarms, landed] = await Promise.all([
    // The checkpoint the row just read points at: one round trip, not two.
    loop.checkpointId ? db.loopStore.checkpointById(loop.checkpointId) : null,
    chartSeries(db, lineage.segments),
    pendingControlRequests(db.prisma, loopId),
    recentApprovals(db.prisma, loopId, APPROVAL_LIMIT),
    listEvents(db.prisma, loopId, { limit: MARKER_LIMIT, types: MARKER_EVENT_TYPES }),
    currentAlarms(db.prisma, [loop], now),
    landedLoopIds(db.prisma, [loopId]),
  ]);
  const snapshot = checkpoint ? await restoreStoredCheckpoint(db.loopStore, checkpoint) : null;
  // A loop without a git workspace (a demo) snapshots nothing: no roll back, no worktree to remove.
  const gitWorkspace = loop.iteration > 0 && (await iterationSnapshotSha(db.prisma, loopId, loop.iteration)) !== null;
  const report = snapshot ? buildReport(snapshot, now) : null;
  const forecast = snapshot
    ? forecastBudget(snapshot.ledger, snapshot.config.budget, remainingIterations(snapshot))
    : null;
  const { definition, redactedPaths } = redactStoredDefinition(loop.config);
  const pendingKinds = pendingControls.map((c) => c.kind);
  const state = controlStateOf({ status: loop.status, pendingKinds, snapshot });
  return {
    loop: {
      ...loop,
      status: asLoopRowStatus(loop.status),
      stopType: asStopType(loop.stopType),
      health: asHealthState(loop.health),
      config: definition,
      displayStatus: displayStatus(state),
      isTerminal: isTerminal(loop.status),
      costPerVerifiedUsd: loopCostPerVerified({ ...loop, landed: landed.has(loopId) }).costPerVerifiedUsd,
    },
    /** Every action's allowed/reason, decided by the same rules the API enforces. */
    availability: loopAvailability({ ...state, iterations: loop.iteration }, options),
    redactedPaths,
    /** For a fork: the loop it was forked from and the iterations inherited from it (null otherwise). */
    fork: forkOf(loop, lineage.ancestors),
    /** Parts that run without the sandbox (warning badge). */
    unsandboxed: unsandboxedParts(loop.config, getEnv().RALPH_AGENT_SANDBOX),
    config: snapshot?.config ?? null,
    report,
    forecast,
    /** Iterations a provider's usage limit stopped: they do not count against maxIterations. */
    limitedIterations: snapshot?.usageLimit?.limitedIterations ?? 0,
    /** Roll back and worktree removal, decided here as rollbackLoop and removeLoopWorktree decide. */
    workspaceActions: workspaceActions(loop, gitWorkspace, options.canOperate ?? false),
    /** The loop waits because its budget throttles it (enforce mode, from throttleAt): the facts, else null. */
    budgetThrottle: budgetThrottleOf(loop.status, snapshot),
    pendingGate: snapshot?.gate ?? null,
    /** The agent's question the loop waits on (needs_attention), with the policy that made it wait. */
    pendingQuestion: snapshot?.attention ?? null,
    pendingControls: pendingControls.map((c) => ({
      id: c.id,
      kind: c.kind,
      actor: c.actor,
      reason: c.reason,
      createdAt: c.createdAt,
    })),
    approvals,
    /** The alarms the loop raises now (the same judgement as the list's), for the header. */
    alarms: alarms.get(loop.id) ?? [],
    /** At most SERIES_POINTS points; `seriesBucketSize` > 1 when each stands for that many iterations. */
    series: series.points,
    seriesBucketSize: series.bucketSize,
    // Oldest first, as the charts read them.
    markers: markerEvents.reverse(),
    now: new Date(now),
  };
}

function forkOf(loop: { forkedFromId: string | null; forkedFromIteration: number | null }, ancestors: ForkAncestor[]) {
  if (!loop.forkedFromId || loop.forkedFromIteration === null) return null;
  const parent = ancestors[0];
  return {
    parentId: loop.forkedFromId,
    /** null when the parent was deleted: its history is gone with it. */
    parentName: parent?.name ?? null,
    iteration: loop.forkedFromIteration,
    /** How many iterations (numbers) the charts and list show from ancestors. */
    inheritedIterations: parent ? parent.upTo : 0,
  };
}

/** The stored definition for "clone": goal and name plus the redacted config. */
export async function getLoopDefinition(db: Database, loopId: string) {
  const loop = await loopDefinitionById(db.prisma, loopId);
  if (!loop) throw notFound("Loop", loopId);
  const { definition, redactedPaths } = redactStoredDefinition(loop.config);
  return {
    sourceId: loop.id,
    definition: { ...definition, name: loop.name ? `${loop.name} (copy)` : "", goal: loop.goal },
    redactedPaths,
  };
}

/**
 * The chart series of iterations `from`..`to` only: a zoomed-in chart. At full
 * resolution (every attempt) while the window holds at most SERIES_POINTS
 * iterations, downsampled like the whole series beyond. A fork's window reads
 * its parent's iterations up to the fork point, as its whole series does.
 */
export async function getSeriesWindow(db: Database, loopId: string, window: { from: number; to: number }) {
  const loop = await loopLineageById(db.prisma, loopId);
  if (!loop) throw notFound("Loop", loopId);
  const lineage = await forkLineage(db.prisma, loop);
  const series = await chartSeries(db, lineage.segments, SERIES_POINTS, window);
  return { from: window.from, to: window.to, points: series.points, bucketSize: series.bucketSize };
}

/**
 * A page of a loop's full iteration rows, newest first; `nextBeforeNumber` fetches the page after it.
 * A fork's pages go on into its parent's rows up to the fork point, each marked with `inheritedFrom`.
 */
export async function getIterationPage(db: Database, loopId: string, page: { beforeNumber?: number; limit: number }) {
  const loop = await loopLineageById(db.prisma, loopId);
  if (!loop) return { items: [], nextBeforeNumber: undefined };
  const lineage = await forkLineage(db.prisma, loop);
  const names = new Map(lineage.ancestors.map((a) => [a.id, a.name]));
  const rows = await iterationPage(db.prisma, lineage.segments, page);
  const items = rows.map((row) => ({
    ...row,
    // The JSON columns as step-rows writes them (the browser's one typed view of them).
    scores: (row.scores ?? {}) as unknown as Record<string, StoredScoreCell>,
    diagnostics: row.diagnostics as StoredDiagnostics | null,
    inheritedFrom: row.loopId === loopId ? null : { loopId: row.loopId, name: names.get(row.loopId) ?? "" },
  }));
  return { items, nextBeforeNumber: items.length === page.limit ? items.at(-1)?.number : undefined };
}

type Allowed = { allowed: boolean; reason: string | null };

function workspaceActions(
  loop: { status: string; leaseOwner: string | null },
  gitWorkspace: boolean,
  canOperate: boolean,
): { rollback: Allowed; removeWorktree: Allowed } {
  const no = (reason: string): Allowed => ({ allowed: false, reason });
  if (!canOperate) return { rollback: no("needs the operator role"), removeWorktree: no("needs the operator role") };
  if (!gitWorkspace) {
    const none = no("this loop has no git workspace (nothing was snapshotted)");
    return { rollback: none, removeWorktree: none };
  }
  const ended = isTerminal(loop.status);
  const idle = (loop.status === "paused" || loop.status === "awaiting_approval" || ended) && loop.leaseOwner === null;
  return {
    rollback: idle
      ? { allowed: true, reason: null }
      : no("interrupt the loop first: a roll back changes the files its agent works in"),
    removeWorktree: ended ? { allowed: true, reason: null } : no("the loop has not ended"),
  };
}

// One loop as the detail page and the shared report need it: the row, the
// engine's own report and forecast from the current checkpoint, the series
// for the charts (built from the append-only iterations), the events the
// charts mark (health, interventions, breaker, handoffs, gates), and what
// awaits the operator. The stored definition leaves only redacted.
import { buildReport, restoreFromCheckpoint, remainingIterations, forecastBudget } from "../engine";
import type { Database } from "../db/client";
import { listEvents } from "../db/events.repo";
import { iterationSeries } from "../db/iterations.repo";
import { currentCheckpoint } from "../db/loop-steps.repo";
import { notFound } from "../errors";
import { redactStoredDefinition } from "./redact-definition";

type ScoreCell = { score: number; reason: string | null };

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

export async function getLoopDetail(db: Database, loopId: string, now: number) {
  const loop = await db.prisma.loop.findUnique({ where: { id: loopId } });
  if (!loop) throw notFound("Loop", loopId);
  const [checkpoint, series, pendingControls, approvals, markerEvents] = await Promise.all([
    currentCheckpoint(db.prisma, loopId),
    iterationSeries(db.prisma, loopId),
    db.prisma.controlRequest.findMany({ where: { loopId, status: "pending" }, orderBy: { createdAt: "asc" } }),
    db.prisma.approval.findMany({ where: { loopId }, orderBy: { requestedAt: "desc" }, take: 20 }),
    listEvents(db.prisma, loopId, { limit: MARKER_LIMIT, types: MARKER_EVENT_TYPES }),
  ]);
  const snapshot = checkpoint ? restoreFromCheckpoint(JSON.parse(checkpoint.state), checkpoint.sha256) : null;
  const report = snapshot ? buildReport(snapshot, now) : null;
  const forecast = snapshot ? forecastBudget(snapshot.ledger, snapshot.config.budget, remainingIterations(snapshot)) : null;
  const interrupting = pendingControls.some((c) => c.kind === "interrupt" || c.kind === "kill");
  const { definition, redactedPaths } = redactStoredDefinition(loop.config);
  return {
    loop: {
      ...loop,
      config: definition,
      displayStatus: interrupting && ["running", "queued", "waiting"].includes(loop.status) ? "interrupting" : loop.status,
    },
    redactedPaths,
    config: snapshot?.config ?? null,
    report,
    forecast,
    pendingGate: snapshot?.gate ?? null,
    pendingControls: pendingControls.map((c) => ({ id: c.id, kind: c.kind, actor: c.actor, reason: c.reason, createdAt: c.createdAt })),
    approvals,
    series: series.map((s) => ({
      ...s,
      scores: Object.fromEntries(Object.entries((s.scores ?? {}) as Record<string, ScoreCell>).map(([k, v]) => [k, v.score])),
    })),
    // Oldest first, as the charts read them.
    markers: markerEvents.reverse(),
    now: new Date(now),
  };
}

/** The stored definition for "clone": goal and name plus the redacted config. */
export async function getLoopDefinition(db: Database, loopId: string) {
  const loop = await db.prisma.loop.findUnique({ where: { id: loopId }, select: { id: true, name: true, goal: true, config: true } });
  if (!loop) throw notFound("Loop", loopId);
  const { definition, redactedPaths } = redactStoredDefinition(loop.config);
  return {
    sourceId: loop.id,
    definition: { ...definition, name: loop.name ? `${loop.name} (copy)` : "", goal: loop.goal },
    redactedPaths,
  };
}

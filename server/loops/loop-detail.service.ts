// One loop as the detail page and the shared report need it: the row, the
// engine's own report and forecast from the current checkpoint, the series
// for the charts (built from the append-only iterations), and what awaits
// the operator.
import { buildReport, restoreFromCheckpoint, remainingIterations, forecastBudget } from "../engine";
import type { Database } from "../db/client";
import { iterationSeries } from "../db/iterations.repo";
import { currentCheckpoint } from "../db/loop-steps.repo";
import { notFound } from "../errors";

type ScoreCell = { score: number; reason: string | null };

export async function getLoopDetail(db: Database, loopId: string, now: number) {
  const loop = await db.prisma.loop.findUnique({ where: { id: loopId } });
  if (!loop) throw notFound("Loop", loopId);
  const [checkpoint, series, pendingControls, approvals] = await Promise.all([
    currentCheckpoint(db.prisma, loopId),
    iterationSeries(db.prisma, loopId),
    db.prisma.controlRequest.findMany({ where: { loopId, status: "pending" }, orderBy: { createdAt: "asc" } }),
    db.prisma.approval.findMany({ where: { loopId }, orderBy: { requestedAt: "desc" }, take: 20 }),
  ]);
  const snapshot = checkpoint ? restoreFromCheckpoint(JSON.parse(checkpoint.state), checkpoint.sha256) : null;
  const report = snapshot ? buildReport(snapshot, now) : null;
  const forecast = snapshot ? forecastBudget(snapshot.ledger, snapshot.config.budget, remainingIterations(snapshot)) : null;
  const interrupting = pendingControls.some((c) => c.kind === "interrupt" || c.kind === "kill");
  return {
    loop: {
      ...loop,
      displayStatus: interrupting && ["running", "queued", "waiting"].includes(loop.status) ? "interrupting" : loop.status,
    },
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
  };
}

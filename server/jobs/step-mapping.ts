// Turns what the engine returns into the rows the database stores. Pure.
import {
  type Checkpoint,
  type ControlRequest as EngineControlRequest,
  type EngineEvent,
  type IterationRecord,
  type LoopSnapshot,
  type PreflightDecision,
  type StepDecision,
} from "../engine";
import type { CheckpointRow, IterationRow } from "../db/loop-steps.repo";
import type { NewLoopEvent } from "../db/events.repo";

export function checkpointRow(checkpoint: Checkpoint): CheckpointRow {
  return {
    id: checkpoint.id,
    iteration: checkpoint.metadata.iteration,
    // Any faithful JSON will do: restoring re-canonicalises before checking the hash.
    state: JSON.stringify(checkpoint),
    sha256: checkpoint.hash,
  };
}

export function eventRows(events: readonly EngineEvent[]): NewLoopEvent[] {
  return events.map((event) => {
    const { loopId, type, actor, reason, ...payload } = event;
    return { loopId, type, actor, actorId: null, reason, payload };
  });
}

export function iterationRow(record: IterationRecord): IterationRow {
  return {
    id: `${record.loopId}:${record.number}:${record.agentId}`,
    number: record.number,
    status: record.status,
    agentId: record.agentId,
    input: record.input,
    output: record.output,
    outputTruncated: record.outputTruncated,
    claimedDone: record.claim.done,
    claim: record.claim.text ?? null,
    evidence: record.evidence as object,
    evidenceComplete: record.evidence.complete === true,
    claimMismatch: record.claimMismatch !== null,
    scores: Object.fromEntries(
      Object.entries(record.scores).map(([name, score]) => [name, { score, reason: record.scoreReasons[name] ?? null }]),
    ),
    meanScore: record.meanScore,
    validation: (record.validation ?? undefined) as object | undefined,
    verification: record.verification as object,
    reflection: (record.reflection ?? undefined) as object | undefined,
    toolCalls: record.toolCalls,
    tokensIn: record.tokens.input,
    tokensOut: record.tokens.output,
    tokensCache: record.tokens.cache,
    costUsd: record.costUsd,
    startedAt: new Date(record.startedAt),
    finishedAt: new Date(record.finishedAt),
    durationMs: Math.round(record.durationMs),
    health: record.health,
    handoffTrigger: record.handoffTrigger,
    error: record.error,
    checkpointId: record.checkpointId,
  };
}

/** The loop row's status for a decision; "running" while iterations continue. */
export function statusFor(snapshot: LoopSnapshot, decision: StepDecision | PreflightDecision): string {
  switch (decision.kind) {
    case "continue":
    case "run":
      return "running";
    case "wait":
      return "waiting";
    case "await_approval":
      return "awaiting_approval";
    case "pause":
      return "paused";
    case "halt":
      return snapshot.status;
  }
}

/** When a waiting or gated loop should be picked up again. */
export function nextRunAtFor(decision: StepDecision | PreflightDecision): Date | null {
  if (decision.kind === "wait") return new Date(decision.untilMs);
  if (decision.kind === "await_approval" && decision.deadlineAt !== null) return new Date(decision.deadlineAt);
  return null;
}

export function loopPatch(snapshot: LoopSnapshot, decision: StepDecision | PreflightDecision, now: Date) {
  const totals = snapshot.ledger.totals;
  const config = snapshot.config;
  const budget = config.budget.maxCostUsd > 0 ? config.budget.maxCostUsd : config.stop.maxCost > 0 ? config.stop.maxCost : null;
  return {
    status: statusFor(snapshot, decision),
    stopType: snapshot.halt?.stopType ?? null,
    stopReason: snapshot.halt?.reason ?? null,
    health: snapshot.health.state,
    iteration: snapshot.state.iteration,
    maxIterations: config.stop.maxIterations,
    costUsd: totals.costUsd,
    budgetUsd: budget,
    tokensIn: totals.input,
    tokensOut: totals.output,
    tokensCache: totals.cache,
    bestScore: snapshot.progress.bestMeanScore,
    lastScore: snapshot.last.meanScore,
    lastActivityAt: now,
    nextRunAt: nextRunAtFor(decision),
    ...(snapshot.halt ? { finishedAt: now } : {}),
  };
}

export function engineControlRequest(row: {
  id: string;
  kind: string;
  payload: unknown;
  actor: string;
  reason: string | null;
  createdAt: Date;
}): EngineControlRequest {
  const payload = (row.payload ?? {}) as Record<string, unknown>;
  return {
    id: row.id,
    requestedAt: row.createdAt.getTime(),
    by: row.actor,
    ...(row.reason ? { reason: row.reason } : {}),
    command: { type: row.kind, ...payload } as EngineControlRequest["command"],
  };
}

const DECIDED: Record<string, string> = {
  approve: "approved",
  reject: "rejected",
  request_changes: "changes_requested",
  terminate: "rejected",
};

/** Approval rows to settle, from the engine's approval_decided events. */
export function decidedApprovals(events: readonly EngineEvent[]) {
  return events.flatMap((e) =>
    e.type === "approval_decided"
      ? [{ id: e.gateId, status: e.byDefault ? "expired" : (DECIDED[e.decision] ?? e.decision), comment: e.comment, by: e.actor, at: new Date(e.at) }]
      : [],
  );
}

/** The approval row for a gate the loop now waits at. */
export function openApproval(snapshot: LoopSnapshot, decision: StepDecision | PreflightDecision) {
  if (decision.kind !== "await_approval") return undefined;
  const gate = decision.gate;
  return {
    id: gate.id,
    iteration: gate.iteration,
    gate: gate.kind,
    deadlineAt: gate.deadlineAt === null ? null : new Date(gate.deadlineAt),
    defaultAction: gate.defaultAction,
    context: {
      reason: gate.reason,
      percent: gate.percent,
      stopType: gate.stopType,
      costUsd: snapshot.ledger.totals.costUsd,
      meanScore: snapshot.last.meanScore,
      iteration: snapshot.state.iteration,
    },
  };
}

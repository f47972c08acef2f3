// Turns what the engine returns at a safe point into the rows the database
// stores, for the runtime and for services that apply controls. Pure.
import {
  controlCommandSchema,
  type Checkpoint,
  type ControlRequest,
  type EngineEvent,
  type GateDecision,
  type IterationRecord,
  type LoopSnapshot,
  type PreflightDecision,
  type Sha256,
  type StepDecision,
  type TestEvidence,
  type TraceSpan,
  type IterationDiagnostics,
  type WorkspaceResult,
  type WorkspaceSnapshot,
  encodeCheckpoint,
} from "../engine";
import { scrubText } from "../db/text-scrub";
import type { CheckpointRow, IterationRow } from "../db/step-write";
import type { NewLoopEvent } from "../db/events.repo";

/** User ids by the actor names engine events carry (the requests' authors), so stored events keep both. */
export type ActorIds = ReadonlyMap<string, string | null>;

export interface CheckpointStorage {
  sha256: Sha256;
  /** The id of an iteration row of this loop that holds the snapshot's last output (see `outputRowFor`). */
  outputRow?: string | null;
  /** Hashes of the parts the loop has stored already. */
  stored?: ReadonlySet<string>;
}

/** The row of a checkpoint (format 2) and, in `cites`, every part hash it cites. */
export function checkpointRow(
  checkpoint: Checkpoint,
  storage: CheckpointStorage,
): { row: CheckpointRow; cites: string[] } {
  const encoded = encodeCheckpoint(checkpoint, storage);
  const row = {
    id: checkpoint.id,
    iteration: checkpoint.metadata.iteration,
    state: encoded.state,
    sha256: checkpoint.hash,
  };
  return { row: { ...row, parts: encoded.parts }, cites: encoded.cites };
}

/**
 * The iteration row a checkpoint may cite for its last output: the record's
 * own row, when it holds the output exactly as the snapshot does (the
 * database scrubs NULs and lone surrogates out of what it stores).
 */
export function outputRowFor(record: IterationRecord, snapshot: LoopSnapshot): string | null {
  const row = iterationRow(record);
  const output = snapshot.last.output;
  return row.output === output && snapshot.last.agentId === record.agentId && scrubText(output) === output
    ? row.id
    : null;
}

export function eventRows(events: readonly EngineEvent[], actorIds: ActorIds = new Map()): NewLoopEvent[] {
  return events.map((event) => {
    const { loopId, type, actor, reason, ...payload } = event;
    return { loopId, type, actor, actorId: actorIds.get(actor) ?? null, reason, payload };
  });
}

export function iterationRow(record: IterationRecord): IterationRow {
  return {
    id: `${record.loopId}:${record.number}:${record.agentId}`,
    number: record.number,
    status: record.status,
    agentId: record.agentId,
    agent: record.agent ?? "primary",
    input: record.input,
    output: record.output,
    outputTruncated: record.outputTruncated,
    claimedDone: record.claim.done,
    claim: record.claim.text ?? null,
    evidence: record.evidence as object,
    evidenceComplete: record.evidence.complete === true,
    claimMismatch: record.claimMismatch !== null,
    scores: Object.fromEntries(
      Object.entries(record.scores).map(([name, score]) => [
        name,
        // Test evidence (counts, failing tests) sits with the score it explains.
        {
          score,
          reason: record.scoreReasons[name] ?? null,
          ...(record.tests?.[name] ? { tests: record.tests[name] as object } : {}),
        },
      ]),
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
    ...workspaceColumns(record.workspace),
    ...transcriptColumn(record.meta),
    askedQuestion: record.question !== null,
    question: record.question,
    failureKind: record.failureKind,
    // The trace rides in the diagnostics JSON: no column of its own for a few spans per iteration.
    diagnostics: diagnosticsWithTrace(record),
  };
}

/** What an iteration's `workspace` column holds: the snapshot's summary, the tamper flag, or the error. */
export type IterationWorkspace = Partial<WorkspaceSnapshot> & {
  tampered?: { files: string[]; policy: string };
  error?: string;
  diffTruncated?: boolean;
};

/**
 * The workspace's git snapshot as the agent left it, as stored: the summary
 * (sha, files, +/-, the tamper flag, or the error that kept the snapshot from
 * being taken) in one column, the code diff apart (it is read on demand).
 */
export function workspaceColumns(ws: WorkspaceResult | null): { workspace?: object; codeDiff?: string } {
  if (!ws) return {};
  if ("error" in ws) return { workspace: { error: ws.error } satisfies IterationWorkspace };
  const workspace: IterationWorkspace = {
    ...ws.snapshot,
    ...(ws.tampered ? { tampered: ws.tampered } : {}),
    ...(ws.diff.truncated ? { diffTruncated: true } : {}),
  };
  return { workspace, codeDiff: ws.diff.text };
}

/** The agent's transcript lines as the command executor kept them (read on demand, like the code diff). */
export function transcriptColumn(meta: Record<string, unknown> | null): { transcript?: object } {
  const t = meta?.transcript as { lines?: unknown } | undefined;
  return t && Array.isArray(t.lines) ? { transcript: t } : {};
}

/**
 * The audit event for an iteration whose agent changed protected evidence
 * (who: the agent; why: the files), written with the iteration.
 */
export function tamperEventRows(loopId: string, record: IterationRecord | undefined): NewLoopEvent[] {
  const ws = record?.workspace;
  const tampered = ws && "snapshot" in ws ? ws.tampered : null;
  // What the graders found on the clean tree (files, hooks, .git, refs, code reading the test run).
  const graded = Object.values(record?.tests ?? {}).flatMap((t) => (t.grading ? [t.grading] : []));
  const found = [...new Map(graded.flatMap((g) => g.tampering).map((t) => [`${t.what}|${t.how}`, t])).values()];
  if (!record || (!tampered?.files?.length && found.length === 0)) return [];
  const files = [...new Set([...(tampered?.files ?? []), ...found.map((t) => t.what)])];
  const what =
    tampered?.policy === "fail" ? "counted as failed evidence" : "restored to the baseline; graded on the clean tree";
  const count = Math.max(0, ...graded.map((g) => g.tamperedIterations ?? 0));
  return [
    {
      loopId,
      type: "evidence_tampered",
      actor: `agent ${record.agentId}`,
      actorId: null,
      reason: `iteration ${record.number} tampered with the evidence (${files.join(", ")}); ${what}`,
      payload: {
        iteration: record.number,
        files,
        policy: tampered?.policy ?? "restore",
        ...(found.length > 0 ? { tampering: found.slice(0, 20) } : {}),
        // The second iteration caught tampering raises the needs-attention alert.
        ...(count >= 2 ? { repeated: count } : {}),
      },
    },
  ];
}

/** The loop row's status for a decision; "running" while iterations continue. */
export function statusFor(snapshot: LoopSnapshot, decision: StepDecision | PreflightDecision): string {
  switch (decision.kind) {
    case "continue":
    case "run":
      return "running";
    case "wait":
      return decision.reason === "usage_limit" ? "waiting_for_limit" : "waiting";
    case "await_approval":
      return "awaiting_approval";
    case "await_answer":
      return "needs_attention";
    case "pause":
      // A limit that kept coming back: paused, but the operator is asked to look.
      return snapshot.status === "needs_attention" ? "needs_attention" : "paused";
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
  const budget =
    config.budget.maxCostUsd > 0 ? config.budget.maxCostUsd : config.stop.maxCost > 0 ? config.stop.maxCost : null;
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

/**
 * What a loop page needs to show an ended iteration without refetching the
 * loop: the loop's counters after it (absolute, so a replayed event changes
 * nothing) and its chart point (the series' shape at full resolution).
 * Carried on the stored iteration_finished event.
 */
export function iterationSummary(
  loopId: string,
  patch: ReturnType<typeof loopPatch>,
  iteration: { record: IterationRecord; row: IterationRow; attempt: number },
) {
  // The point as the series reads the stored row back (a db test holds them equal).
  const { record, row, attempt } = iteration;
  return {
    loop: {
      iteration: patch.iteration,
      costUsd: patch.costUsd,
      tokensIn: patch.tokensIn,
      tokensOut: patch.tokensOut,
      tokensCache: patch.tokensCache,
      bestScore: patch.bestScore,
      lastScore: patch.lastScore,
      health: patch.health,
      lastActivityAt: patch.lastActivityAt.getTime(),
    },
    point: {
      loopId,
      number: record.number,
      attempt,
      status: record.status,
      scores: { ...record.scores },
      meanScore: record.meanScore,
      costUsd: row.costUsd,
      tokensIn: row.tokensIn,
      tokensOut: row.tokensOut,
      tokensCache: row.tokensCache,
      durationMs: row.durationMs,
      health: row.health,
      handoffTrigger: row.handoffTrigger,
      claimedDone: row.claimedDone,
      claimMismatch: row.claimMismatch,
      evidenceComplete: row.evidenceComplete,
      finishedAt: record.finishedAt,
    },
  };
}

/** The step's iteration_finished row, with the summary the page patches itself from. */
export function withIterationSummary(
  rows: NewLoopEvent[],
  summary: ReturnType<typeof iterationSummary> | undefined,
): NewLoopEvent[] {
  if (!summary) return rows;
  return rows.map((r) =>
    r.type === "iteration_finished" ? { ...r, payload: { ...(r.payload as object), summary } } : r,
  );
}

/** A stored request as the engine applies it; null when its kind or payload is not one the engine knows. */
export function engineControlRequest(row: {
  id: string;
  kind: string;
  payload: unknown;
  actor: string;
  reason: string | null;
  createdAt: Date;
}): ControlRequest | null {
  const payload = typeof row.payload === "object" && row.payload !== null ? row.payload : {};
  const command = controlCommandSchema.safeParse({ ...payload, kind: row.kind });
  if (!command.success) return null;
  return {
    id: row.id,
    requestedAt: row.createdAt.getTime(),
    by: row.actor,
    ...(row.reason ? { reason: row.reason } : {}),
    command: command.data,
  };
}

/** How a decided gate is stored on its approval row (the one copy of this map). */
export const APPROVAL_STATUS: Record<GateDecision, string> = {
  approve: "approved",
  reject: "rejected",
  request_changes: "changes_requested",
  terminate: "rejected",
};

/** Approval rows to settle, from the engine's approval_decided events. */
export function decidedApprovals(events: readonly EngineEvent[], actorIds: ActorIds = new Map()) {
  return events.flatMap((e) =>
    e.type === "approval_decided"
      ? [
          {
            id: e.gateId,
            status: e.byDefault ? "expired" : APPROVAL_STATUS[e.decision],
            comment: e.comment,
            by: e.actor,
            byId: e.byDefault ? null : (actorIds.get(e.actor) ?? null),
            at: new Date(e.at),
          },
        ]
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

/** One cell of an iteration's `scores` column: the score, why, and the test evidence behind it. */
export interface StoredScoreCell {
  score: number;
  reason: string | null;
  tests?: TestEvidence;
}

/** An iteration's `diagnostics` column: the agent process's diagnostics and the trace. */
export type StoredDiagnostics = IterationDiagnostics & { trace?: TraceSpan[] };

/** The agent process's diagnostics plus the iteration's trace (when it has one). */
export function diagnosticsWithTrace(record: Pick<IterationRecord, "diagnostics" | "trace">): object | undefined {
  const trace = record.trace ?? [];
  if (trace.length === 0) return record.diagnostics ?? undefined;
  return { ...(record.diagnostics ?? {}), trace };
}

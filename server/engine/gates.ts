/**
 * Approval gates. Semantics, uniform across kinds:
 * - approve: pass the gate (completion gate: the loop completes; other
 *   gates: the loop goes on);
 * - reject: the gated step does not happen (completion gate: keep
 *   iterating; budget/periodic gate: pause until resumed);
 * - request_changes: keep iterating, with the comment in the next input;
 * - terminate: halt with explicit_stop.
 * A gate past its deadline takes its configured default action, by "system".
 */
import { budgetUsed } from "./budget";
import type { ApprovalDefaultAction } from "./config.schema";
import type { EngineEvent } from "./events";
import type { Deps } from "./ports";
import type { LoopSnapshot, PendingGate } from "./snapshot";
import type { StopType } from "./stop-types";
import { haltLoop, setStatus, stamp, SYSTEM } from "./transitions";
import type { GateDecision, GateKind } from "./vocabulary";

export interface GateRequest {
  kind: GateKind;
  reason: string;
  stopType: StopType | null;
  percent: number | null;
}

function gateSettings(
  snapshot: LoopSnapshot,
  kind: GateKind,
): { deadline: number; defaultAction: ApprovalDefaultAction } {
  const approvals = snapshot.config.approvals;
  if (kind === "completion") return approvals.beforeCompletion;
  return kind === "budget" ? approvals.budget : approvals.periodic;
}

export function openGate(
  snapshot: LoopSnapshot,
  request: GateRequest,
  deps: Pick<Deps, "newId">,
  now: number,
  out: EngineEvent[],
): LoopSnapshot {
  const settings = gateSettings(snapshot, request.kind);
  const gate: PendingGate = {
    id: deps.newId(),
    kind: request.kind,
    iteration: snapshot.state.iteration,
    requestedAt: now,
    deadlineAt: settings.deadline > 0 ? now + settings.deadline * 1000 : null,
    defaultAction: settings.defaultAction,
    reason: request.reason,
    stopType: request.stopType,
    percent: request.percent,
  };
  out.push(
    stamp(snapshot, now, "engine", request.reason, {
      type: "approval_requested",
      gateId: gate.id,
      kind: gate.kind,
      deadlineAt: gate.deadlineAt,
    }),
  );
  // A paused loop stays paused; resuming it brings this approval up.
  if (snapshot.pause !== null) return { ...snapshot, gate };
  return setStatus({ ...snapshot, gate }, "awaiting_approval", now, "engine", request.reason, out);
}

/** The highest configured budget percentage crossed and not yet cleared. */
export function budgetGateDue(snapshot: LoopSnapshot): number | null {
  const { budget } = snapshot.config.approvals;
  const used = budgetUsed(snapshot.ledger.totals, snapshot.config.budget);
  if (!budget.enabled || used === null) return null;
  const crossed = budget.percents.filter((p) => used * 100 >= p && !snapshot.gatesCleared.budgetPercents.includes(p));
  return crossed.length === 0 ? null : Math.max(...crossed);
}

export function periodicGateDue(snapshot: LoopSnapshot): boolean {
  const every = snapshot.config.approvals.periodic.every;
  const n = snapshot.state.iteration;
  return every > 0 && n > 0 && n % every === 0 && snapshot.gatesCleared.periodicIteration < n;
}

function clearGate(snapshot: LoopSnapshot, gate: PendingGate): LoopSnapshot {
  const cleared = { ...snapshot.gatesCleared };
  if (gate.kind === "budget" && gate.percent !== null) {
    // Clearing a percentage also clears every lower one it implies.
    const lower = snapshot.config.approvals.budget.percents.filter((p) => p <= gate.percent!);
    cleared.budgetPercents = [...new Set([...cleared.budgetPercents, ...lower])].sort((a, b) => a - b);
  }
  if (gate.kind === "periodic") cleared.periodicIteration = Math.max(cleared.periodicIteration, gate.iteration);
  return { ...snapshot, gate: null, gatesCleared: cleared };
}

/** The audit reason of a gate decision, shared by the decision event and the status change it causes. */
function decisionWhy(gate: { kind: string }, decision: GateDecision, byDefault: boolean): string {
  return byDefault ? `deadline passed: default action ${decision}` : `${decision} at ${gate.kind} gate`;
}

/** An answer to the open gate: the decision, the operator's comment, who gave it, and whether the deadline's default did. */
export interface GateAnswer {
  decision: GateDecision;
  comment: string | null;
  actor: string;
  byDefault?: boolean;
}

/** Records the decision and closes the gate, without its effect on the loop (see resolveGate). */
export function closeGate(snapshot: LoopSnapshot, answer: GateAnswer, now: number, out: EngineEvent[]): LoopSnapshot {
  const gate = snapshot.gate;
  if (gate === null) return snapshot;
  const { decision, comment, actor, byDefault = false } = answer;
  out.push(
    stamp(snapshot, now, actor, comment ?? decisionWhy(gate, decision, byDefault), {
      type: "approval_decided",
      gateId: gate.id,
      kind: gate.kind,
      decision,
      comment,
      byDefault,
    }),
  );
  return clearGate(snapshot, gate);
}

export function resolveGate(snapshot: LoopSnapshot, answer: GateAnswer, now: number, out: EngineEvent[]): LoopSnapshot {
  const gate = snapshot.gate;
  if (gate === null) return snapshot;
  const { decision, comment, actor, byDefault = false } = answer;
  const why = decisionWhy(gate, decision, byDefault);
  let next = closeGate(snapshot, answer, now, out);
  if (comment !== null && comment.trim() !== "") {
    const approvalComments = [...next.inbox.approvalComments, { text: comment, by: actor, at: now }];
    next = { ...next, inbox: { ...next.inbox, approvalComments } };
  }
  if (decision === "terminate") return haltLoop(next, "explicit_stop", why, actor, now, out);
  if (decision === "approve" && gate.kind === "completion" && gate.stopType !== null) {
    return haltLoop(next, gate.stopType, `Approved: ${gate.reason}`, actor, now, out);
  }
  if (decision === "reject" && gate.kind !== "completion") {
    next = { ...next, pause: { text: why, by: actor, at: now } };
    return setStatus(next, "paused", now, actor, why, out);
  }
  return setStatus(next, "running", now, actor, why, out);
}

/** Applies the default action when the deadline has passed; otherwise a no-op. */
export function expireGate(snapshot: LoopSnapshot, now: number, out: EngineEvent[]): LoopSnapshot {
  const gate = snapshot.gate;
  if (gate === null || gate.deadlineAt === null || now < gate.deadlineAt) return snapshot;
  return resolveGate(
    snapshot,
    { decision: gate.defaultAction, comment: null, actor: SYSTEM, byDefault: true },
    now,
    out,
  );
}

/**
 * Phase 6, Halt: the safe point after an iteration. Order matters and is
 * deliberate: an abort cause first (kill/cancel), then stored controls
 * (operator intent), then the detectors, then approval gates, then pause,
 * then pacing. A killed iteration pauses the loop and skips the detectors
 * and gates: its evidence is incomplete, and the operator decides next (even
 * in the last allowed iteration, a kill pauses rather than stops the loop).
 */
import type { ControlAck, ControlRequest } from "./control-commands";
import { applyControls } from "./controls";
import { pacingWait, standingDecision, type StepDecision } from "./decision";
import { createDefaultDetectors, detectorContext, type StopDetector } from "./detectors";
import type { EngineEvent, EventLog } from "./events";
import { budgetGateDue, openGate, periodicGateDue } from "./gates";
import type { Deps } from "./ports";
import type { AbortCause } from "./run-phase";
import type { LoopSnapshot } from "./snapshot";
import { isSuccess } from "./stop-types";
import { ENGINE, haltLoop, setStatus, stamp } from "./transitions";
import { tamperAttention } from "./tamper-attention";
import { limitWaitDecision } from "./usage-limit";

export const defaultDetectors: StopDetector = createDefaultDetectors();

/** The kill that aborted the agent, answered as the request it came from. */
function applyKill(snapshot: LoopSnapshot, cause: AbortCause, now: number, events: EngineEvent[]) {
  if (cause.requestId === undefined) {
    // A kill through the driver's own AbortSignal: no stored request to answer.
    const pause = snapshot.pause ?? { text: cause.reason, by: cause.by, at: now };
    return { snapshot: setStatus({ ...snapshot, pause }, "paused", now, cause.by, cause.reason, events), acks: [] };
  }
  const request: ControlRequest = {
    id: cause.requestId,
    requestedAt: now,
    by: cause.by,
    reason: cause.reason,
    command: { kind: "kill" },
  };
  const applied = applyControls(snapshot, [request], now, { abortedBy: cause.requestId });
  events.push(...applied.events);
  return { snapshot: applied.snapshot, acks: applied.acks };
}

/**
 * question.policy "ask": the agent's question stops the loop in
 * needs_attention until an operator answers (or lets it continue without an
 * answer). The attention_needed event is what an operator alert hooks onto.
 */
function askOperator(snapshot: LoopSnapshot, now: number, events: EngineEvent[]): LoopSnapshot {
  const question = snapshot.plan.question;
  if (!question || snapshot.config.question.policy !== "ask") return snapshot;
  const attention = { question, iteration: snapshot.state.iteration, askedAt: now };
  const why = `the agent asked: ${question}`;
  events.push(stamp(snapshot, now, ENGINE, why, { type: "attention_needed", question }));
  if (snapshot.pause !== null) return { ...snapshot, attention };
  return setStatus({ ...snapshot, attention }, "needs_attention", now, ENGINE, why, events);
}

function questionPending(snapshot: LoopSnapshot): boolean {
  return Boolean(snapshot.plan.question) && snapshot.config.question.policy === "ask";
}

export function haltPhase(args: {
  snapshot: LoopSnapshot;
  deps: Pick<Deps, "now" | "newId">;
  log: EventLog;
  cause: AbortCause | null;
  /** Requests read at this safe point that this step has not answered yet. */
  controls: readonly ControlRequest[];
  detectors?: StopDetector;
}): { snapshot: LoopSnapshot; decision: StepDecision; acks: ControlAck[] } {
  const { deps, cause } = args;
  const now = deps.now();
  const events: EngineEvent[] = [];
  const acks: ControlAck[] = [];
  let next = args.snapshot;

  if (cause?.kind === "cancel") next = haltLoop(next, "cancelled", cause.reason, cause.by, now, events);
  let killed = false;
  if (cause?.kind === "kill" && next.halt === null) {
    const kill = applyKill(next, cause, now, events);
    next = kill.snapshot;
    acks.push(...kill.acks);
    killed = next.pause !== null;
  }

  const rest = args.controls.filter((r) => r.id !== cause?.requestId);
  const controlled = applyControls(next, rest, now);
  events.push(...controlled.events);
  acks.push(...controlled.acks);
  next = controlled.snapshot;

  if (next.halt === null && !killed) {
    const stop = (args.detectors ?? defaultDetectors).check(detectorContext(next, now));
    // A question asked on the last allowed iteration is not lost to the allowance: the loop
    // waits for its answer (needs_attention); the next safe point stops it at the maximum
    // unless the operator raised it, the answer kept in the record either way.
    const questionWaits = stop.shouldStop && stop.stopType === "max_iterations" && questionPending(next);
    if (questionWaits) {
      // askOperator below turns the question into needs_attention.
    } else if (stop.shouldStop && isSuccess(stop.stopType) && next.config.approvals.beforeCompletion.enabled) {
      const request = { kind: "completion" as const, reason: stop.reason, stopType: stop.stopType, percent: null };
      next = openGate(next, request, deps, now, events);
    } else if (stop.shouldStop) {
      next = haltLoop(next, stop.stopType, stop.reason, ENGINE, now, events);
    }
  }
  if (next.halt === null && next.gate === null && !killed) {
    const percent = budgetGateDue(next);
    if (percent !== null) {
      const request = { kind: "budget" as const, reason: `Budget use crossed ${percent}%`, stopType: null, percent };
      next = openGate(next, request, deps, now, events);
    } else if (periodicGateDue(next)) {
      const reason = `Periodic review after iteration ${next.state.iteration}`;
      next = openGate(next, { kind: "periodic", reason, stopType: null, percent: null }, deps, now, events);
    }
  }

  if (next.halt === null && next.gate === null && !killed) next = askOperator(next, now, events);
  // After the detectors: a tampering iteration never completes, but a max-iterations stop still stops.
  if (next.halt === null && next.gate === null && !killed) next = tamperAttention(next, now, events);

  const standing = standingDecision(next);
  if (standing?.kind === "pause" && next.status !== "paused" && next.status !== "needs_attention") {
    next = setStatus(next, "paused", now, next.pause!.by, standing.reason, events);
  }
  args.log.append(events);
  if (standing) return { snapshot: next, decision: standing, acks };
  const decision = limitWaitDecision(next) ?? pacingWait(next, now) ?? { kind: "continue" as const };
  return { snapshot: next, decision, acks };
}

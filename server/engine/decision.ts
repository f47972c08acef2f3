/**
 * What the driver should do next. `runIteration` ends with a StepDecision;
 * `beforeIteration` answers with a PreflightDecision ("run" or why not).
 */
import type { ApprovalDefaultAction } from "./config.schema";
import type { LoopSnapshot, PendingGate } from "./snapshot";
import type { StopType } from "./stop-types";

export interface HaltDecision {
  kind: "halt";
  stopType: StopType;
  reason: string;
}
export interface AwaitApprovalDecision {
  kind: "await_approval";
  gate: PendingGate;
  deadlineAt: number | null;
  defaultAction: ApprovalDefaultAction;
}
export interface PauseDecision {
  kind: "pause";
  reason: string;
}
/** The agent asked the operator something; only an answer (or a stop) moves the loop on. */
export interface AwaitAnswerDecision {
  kind: "await_answer";
  question: string;
}
export type WaitReason = "pacing" | "throttle" | "breaker_cooldown" | "usage_limit";
export interface WaitDecision {
  kind: "wait";
  untilMs: number;
  reason: WaitReason;
  detail: string;
}

export type BlockingDecision =
  HaltDecision | AwaitApprovalDecision | AwaitAnswerDecision | PauseDecision | WaitDecision;
export type StepDecision = { kind: "continue" } | BlockingDecision;
export type PreflightDecision = { kind: "run" } | BlockingDecision;

/**
 * The decision implied by a halted, paused or gated snapshot, if any. A pause
 * outranks a gate: an operator who pauses a loop awaiting approval sees it
 * paused, and resuming it brings the still-pending approval back.
 */
export function standingDecision(
  snapshot: LoopSnapshot,
): HaltDecision | AwaitApprovalDecision | AwaitAnswerDecision | PauseDecision | null {
  if (snapshot.halt !== null) {
    return { kind: "halt", stopType: snapshot.halt.stopType, reason: snapshot.halt.reason };
  }
  if (snapshot.pause !== null) return { kind: "pause", reason: snapshot.pause.text };
  if (snapshot.attention) return { kind: "await_answer", question: snapshot.attention.question };
  if (snapshot.gate !== null) {
    const { gate } = snapshot;
    return { kind: "await_approval", gate, deadlineAt: gate.deadlineAt, defaultAction: gate.defaultAction };
  }
  return null;
}

/** Pacing: the configured delay after the previous iteration finished. */
export function pacingWait(snapshot: LoopSnapshot, now: number): WaitDecision | null {
  const { delayMs } = snapshot.config.pacing;
  const finished = snapshot.last.finishedAt;
  if (delayMs <= 0 || finished === null || now >= finished + delayMs) return null;
  return { kind: "wait", untilMs: finished + delayMs, reason: "pacing", detail: `${delayMs}ms between iterations` };
}

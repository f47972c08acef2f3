// What to do with one operator request, given the loop as stored. Pure, so
// every (state x control) pair is table-tested:
// - refuse: it makes no sense now (CONFLICT), say why;
// - finalize: terminating a draft that never ran;
// - defer: a runtime holds the loop, so its next safe point applies it
//   (an interrupt or kill of the running iteration, anything sent meanwhile);
// - apply: nobody holds the loop, so the same safe point the runtime would
//   run is computed here, without an iteration, and stored at once.
import {
  applySafePointControls,
  preflight,
  type ControlAck,
  type ControlRequest,
  type EngineEvent,
  type LoopSnapshot,
  type PreflightDecision,
} from "../engine";
import { controlAllowed, type ControlState, type LoopRowStatus } from "./control-rules";
import { statusFor } from "./step-rows";

export interface ControlTarget {
  status: string;
  /** A runtime holds the lease (live or expired): only it may change the snapshot. */
  leased: boolean;
  pendingKinds: readonly string[];
  /** The snapshot of the loop's current checkpoint. */
  snapshot: LoopSnapshot | null;
}

export type ControlPlan =
  | { kind: "refuse"; reason: string }
  | { kind: "finalize" }
  | { kind: "defer" }
  | {
      kind: "apply";
      snapshot: LoopSnapshot;
      decision: PreflightDecision;
      events: EngineEvent[];
      ack: ControlAck;
      /** The loop row's new status; "queued" when it can run again. */
      status: LoopRowStatus;
      /** Hand it to a runtime: it is runnable now. */
      wake: boolean;
    };

/** What the rules need to know about a loop: its row status, pending requests and current snapshot. */
export function controlStateOf(target: Pick<ControlTarget, "status" | "pendingKinds" | "snapshot">): ControlState {
  return {
    status: target.status,
    pendingKinds: target.pendingKinds,
    interruptsEnabled: target.snapshot?.config.stop.enableUserInterrupt ?? true,
    gatePending: target.snapshot?.gate != null,
    questionPending: target.snapshot?.attention != null,
  };
}

export function planControl(target: ControlTarget, request: ControlRequest, now: number): ControlPlan {
  const verdict = controlAllowed(controlStateOf(target), request.command.kind);
  if (!verdict.allowed) return { kind: "refuse", reason: verdict.reason! };
  if (target.status === "draft") return { kind: "finalize" };
  if (target.leased || target.snapshot === null) return { kind: "defer" };

  const applied = applySafePointControls(target.snapshot, [request], now);
  const ack = applied.acks[0]!;
  if (ack.outcome === "rejected") return { kind: "refuse", reason: ack.note };
  const checked = preflight(applied.snapshot, now);
  if (checked.decision.kind === "run") {
    // Only a runtime runs iterations: store what the control changed and let one pick the loop up.
    return {
      kind: "apply",
      snapshot: applied.snapshot,
      decision: checked.decision,
      events: applied.events,
      ack,
      status: "queued",
      wake: true,
    };
  }
  return {
    kind: "apply",
    snapshot: checked.snapshot,
    decision: checked.decision,
    events: [...applied.events, ...checked.events],
    ack,
    status: statusFor(checked.snapshot, checked.decision) as LoopRowStatus,
    wake: false,
  };
}

// Which operator control is valid in which loop state. Pure, table-tested.
// "store" records the request for the runtime's next safe point; "wake" also
// makes an idle loop (paused, waiting, gated) runnable so it is applied now.
export type ControlKind =
  | "interrupt"
  | "kill"
  | "resume"
  | "force_handoff"
  | "nudge"
  | "approve"
  | "reject"
  | "request_changes"
  | "terminate"
  | "update_limits";

export type ControlVerdict =
  | { kind: "store"; wake: boolean }
  | { kind: "noop"; why: string }
  | { kind: "conflict"; why: string }
  /** A draft that never ran ends at once. */
  | { kind: "finalize" };

export const TERMINAL_STATUSES = ["completed", "failed", "stopped", "cancelled"];
const IDLE = ["paused", "waiting", "awaiting_approval"];

export function decideControl(status: string, kind: ControlKind, pending: { interrupt: boolean }): ControlVerdict {
  if (TERMINAL_STATUSES.includes(status)) return { kind: "conflict", why: `the loop has ended (${status})` };
  if (status === "draft") {
    return kind === "terminate" ? { kind: "finalize" } : { kind: "conflict", why: "the loop has not been started" };
  }
  const idle = IDLE.includes(status);
  switch (kind) {
    case "interrupt":
    case "kill":
      if (status === "paused") return { kind: "noop", why: "the loop is already paused" };
      if (kind === "interrupt" && pending.interrupt) return { kind: "noop", why: "an interrupt is already pending" };
      return { kind: "store", wake: idle };
    case "resume":
      if (status === "paused") return { kind: "store", wake: true };
      // Resuming cancels an interrupt that has not landed yet.
      if (pending.interrupt) return { kind: "store", wake: false };
      return { kind: "noop", why: "the loop is not paused" };
    case "approve":
    case "reject":
    case "request_changes":
      if (status !== "awaiting_approval") return { kind: "conflict", why: "no approval is pending" };
      return { kind: "store", wake: true };
    case "terminate":
      return { kind: "store", wake: idle };
    case "force_handoff":
    case "nudge":
    case "update_limits":
      return { kind: "store", wake: false };
  }
}

// Which operator control makes sense in which loop state, and what each one
// is called: one exhaustive map per concern, keyed by the engine's ControlKind,
// so adding a control fails to compile until every map has its row. The API
// answers CONFLICT exactly when `controlAvailability` says no, and the UI
// shows the same answers (`loops.byId`), so no copy of these rules is needed
// anywhere else. What a control *does* lives in server/engine/controls.ts.
import { terminalStatuses, type ControlKind, type LoopRowStatus } from "../engine";

export type { LoopRowStatus };
/** What the UI shows: the status, or "interrupting" while an interrupt or kill waits for a running iteration. */
export type DisplayStatus = LoopRowStatus;

export interface ControlState {
  /** The loop row's status. */
  status: string;
  /** Kinds of the requests still waiting for the runtime's next safe point. */
  pendingKinds: readonly string[];
  /** The loop's config lets operators interrupt or kill it. */
  interruptsEnabled: boolean;
  /** An approval is pending (it may sit under a pause). */
  gatePending: boolean;
  /** The agent's question waits for an answer (it may sit under a pause). */
  questionPending?: boolean;
}

export interface Availability {
  allowed: boolean;
  /** Why not (for the button's tooltip and the CONFLICT message); null when allowed. */
  reason: string | null;
}

/** The one list of statuses a loop never leaves. */
export function isTerminal(status: string): boolean {
  return (terminalStatuses as readonly string[]).includes(status);
}

const interruptPending = (s: ControlState) => s.pendingKinds.includes("interrupt") || s.pendingKinds.includes("kill");

export function displayStatus(state: Pick<ControlState, "status" | "pendingKinds">): DisplayStatus {
  const live = ["running", "queued", "waiting", "waiting_for_limit"].includes(state.status);
  return live && interruptPending(state as ControlState) ? "interrupting" : (state.status as LoopRowStatus);
}

/** Label of each control, as buttons and messages name it. */
export const CONTROL_LABELS: Record<ControlKind, string> = {
  interrupt: "Interrupt",
  kill: "Kill",
  resume: "Resume",
  force_handoff: "Force handoff",
  nudge: "Nudge",
  approve: "Approve",
  reject: "Reject",
  request_changes: "Request changes",
  terminate: "Terminate",
  update_limits: "Edit limits",
  answer: "Answer",
};

const paused = "the loop is already paused";
const noGate = (s: ControlState) =>
  s.status === "awaiting_approval"
    ? null
    : s.status === "paused" && s.gatePending
      ? "the loop is paused; resume it to answer the approval"
      : "no approval is pending";

/**
 * When each control makes sense, for a loop that is live (not a draft, not
 * ended): the reason it does not, or null. A control that needs no running
 * iteration is applied at once on an idle loop; the others wait for the
 * runtime's next safe point.
 */
export const CONTROL_RULES: Record<ControlKind, (s: ControlState) => string | null> = {
  interrupt: (s) =>
    s.status === "paused"
      ? paused
      : !s.interruptsEnabled
        ? "user interrupts are disabled by this loop's config"
        : interruptPending(s)
          ? "an interrupt is already pending"
          : null,
  kill: (s) =>
    s.status === "paused"
      ? paused
      : !s.interruptsEnabled
        ? "user interrupts are disabled by this loop's config"
        : s.pendingKinds.includes("kill")
          ? "a kill is already pending"
          : null,
  // While an interrupt waits for the running iteration, resume cancels it. On a loop waiting for a
  // usage limit it is "resume now": try the agent before the reset. A loop that needs attention
  // because the limit kept coming back resumes too; one waiting on a question wants an answer.
  resume: (s) =>
    ["paused", "waiting_for_limit"].includes(s.status) ||
    (s.status === "needs_attention" && !s.questionPending) ||
    interruptPending(s)
      ? null
      : s.status === "needs_attention"
        ? "the agent asked a question: answer it, or continue without answering"
        : "the loop is not paused",
  force_handoff: () => null,
  nudge: () => null,
  approve: noGate,
  reject: noGate,
  request_changes: noGate,
  terminate: () => null,
  update_limits: () => null,
  answer: (s) => (s.status === "needs_attention" || s.questionPending ? null : "the loop is not waiting for an answer"),
};

/** Whether one control may be sent now, and if not, why. */
export function controlAllowed(state: ControlState, kind: ControlKind): Availability {
  const no = (reason: string): Availability => ({ allowed: false, reason });
  if (isTerminal(state.status)) return no(`the loop has ended (${state.status})`);
  if (state.status === "draft") {
    return kind === "terminate" ? { allowed: true, reason: null } : no("the loop has not been started");
  }
  const reason = CONTROL_RULES[kind](state);
  return reason === null ? { allowed: true, reason: null } : no(reason);
}

/** Actions on a loop that are not controls of a running loop. */
export type LoopAction = ControlKind | "start" | "fork" | "share";

/** Every action's availability for one loop, as `loops.byId` can return it. */
export function loopAvailability(
  state: ControlState & { iterations: number },
  options: { canOperate?: boolean } = {},
): Record<LoopAction, Availability> {
  const ok: Availability = { allowed: true, reason: null };
  const no = (reason: string): Availability => ({ allowed: false, reason });
  const ended = isTerminal(state.status);
  const table = {
    start:
      state.status === "draft"
        ? ok
        : no(ended ? `the loop has ended (${state.status}); fork it to run again` : "the loop is already started"),
    fork: state.iterations > 0 ? ok : no("there is no iteration to fork from yet"),
    // A share link shows the loop as it is, ended or not.
    share: ok,
  } as Record<LoopAction, Availability>;
  for (const kind of Object.keys(CONTROL_RULES) as ControlKind[]) table[kind] = controlAllowed(state, kind);
  if (options.canOperate === false) {
    for (const action of Object.keys(table) as LoopAction[]) table[action] = no("your role can only view loops");
  }
  return table;
}

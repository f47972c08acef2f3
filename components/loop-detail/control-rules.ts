// Which control buttons are enabled, mirroring the server's decideControl
// (server/loops/control-rules.ts) so a button is only offered when the
// request would be stored, not refused or ignored. The server still decides;
// this only keeps operators from clicking into a "no". Pure, table-tested.

export type ControlName =
  | "start"
  | "interrupt"
  | "kill"
  | "resume"
  | "forceHandoff"
  | "nudge"
  | "approve"
  | "reject"
  | "requestChanges"
  | "terminate"
  | "updateLimits"
  | "fork"
  | "share";

export interface Availability {
  enabled: boolean;
  /** Why not, for the button's tooltip and screen readers. */
  why: string | null;
}

export const TERMINAL = ["completed", "failed", "stopped", "cancelled"];
const IDLE_OK = { enabled: true, why: null };
const no = (why: string): Availability => ({ enabled: false, why });

export interface ControlState {
  status: string;
  pendingKinds: string[];
  /** Checkpoints exist after the first iteration; a fork needs one. */
  iterations: number;
  canOperate: boolean;
}

export function controlAvailability(state: ControlState): Record<ControlName, Availability> {
  const { status } = state;
  const pendingInterrupt = state.pendingKinds.includes("interrupt") || state.pendingKinds.includes("kill");
  const ended = TERMINAL.includes(status);
  const draft = status === "draft";
  const base = (): Availability => (ended ? no(`the loop has ended (${status})`) : draft ? no("the loop has not been started") : IDLE_OK);

  const table: Record<ControlName, Availability> = {
    start: draft ? IDLE_OK : no(ended ? `the loop has ended (${status}); fork it to run again` : "the loop is already started"),
    interrupt: status === "paused" ? no("the loop is already paused") : pendingInterrupt ? no("an interrupt is already pending") : base(),
    kill: status === "paused" ? no("the loop is already paused") : base(),
    resume: ended || draft ? base() : status === "paused" || pendingInterrupt ? IDLE_OK : no("the loop is not paused"),
    forceHandoff: base(),
    nudge: base(),
    updateLimits: base(),
    approve: status === "awaiting_approval" ? IDLE_OK : no("no approval is pending"),
    reject: status === "awaiting_approval" ? IDLE_OK : no("no approval is pending"),
    requestChanges: status === "awaiting_approval" ? IDLE_OK : no("no approval is pending"),
    // A draft that never ran can be terminated too: it ends at once.
    terminate: ended ? no(`the loop has ended (${status})`) : IDLE_OK,
    fork: state.iterations > 0 ? IDLE_OK : no("there is no iteration to fork from yet"),
    share: IDLE_OK,
  };
  if (!state.canOperate) {
    for (const key of Object.keys(table) as ControlName[]) table[key] = no("your role can only view loops");
  }
  return table;
}

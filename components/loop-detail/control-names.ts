// The loop page names each action by its tRPC procedure (camelCase); the
// server's availability table is keyed by the engine's ControlKind. This is
// the only translation between the two: whether an action is allowed, and
// why not, always comes from `loops.byId`.
import type { LoopDetail } from "@/components/shared/api-types";

type ServerAction = keyof LoopDetail["availability"];
export type Availability = LoopDetail["availability"][ServerAction];

const ACTION_OF = {
  start: "start",
  interrupt: "interrupt",
  kill: "kill",
  resume: "resume",
  forceHandoff: "force_handoff",
  nudge: "nudge",
  approve: "approve",
  reject: "reject",
  requestChanges: "request_changes",
  terminate: "terminate",
  updateLimits: "update_limits",
  fork: "fork",
  share: "share",
} as const satisfies Record<string, ServerAction>;

export type ControlName = keyof typeof ACTION_OF;

export const availabilityOf = (detail: Pick<LoopDetail, "availability">, name: ControlName): Availability =>
  detail.availability[ACTION_OF[name]];

/** The kind a pending request of this control has in `loops.byId`'s `pendingControls`. */
export const requestKindOf = (name: ControlName): string => ACTION_OF[name];

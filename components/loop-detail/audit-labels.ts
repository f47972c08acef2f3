// Human words for the audit log: every event type and every enum value an
// event can carry (control kinds, handoff triggers, health and breaker
// states, gate kinds and decisions), and who acted, by name. A value missing
// here still reads as words ("some_value" → "some value"), never as a code.
import { isLoopStatus, isStopType, statusDisplay, stopTypeLabel } from "@/components/loops/format";

const EVENT: Record<string, string> = {
  loop_created: "Loop created",
  loop_forked: "Loop forked",
  race_decided: "Race decided",
  loop_start_requested: "Start requested",
  loop_started: "Loop started",
  status_changed: "Status",
  iteration_started: "Iteration started",
  iteration_finished: "Iteration finished",
  phase_started: "Phase",
  agent_progress: "Agent progress",
  agent_retry: "Agent retried",
  scored: "Scored",
  validated: "Validated",
  verified: "Verified",
  reflected: "Reflected",
  checkpoint_created: "Checkpoint",
  control_requested: "Control requested",
  control_applied: "Control applied",
  control_rejected: "Control rejected",
  limits_updated: "Limits edited",
  halted: "Stopped",
  handoff: "Fresh context",
  health_changed: "Health",
  breaker_changed: "Circuit breaker",
  intervention: "Intervention",
  budget_alert: "Budget alert",
  throttled: "Throttled",
  approval_requested: "Approval requested",
  approval_decided: "Approval decided",
  permission_requested: "Permission asked",
  permission_decided: "Permission answered",
  attention_needed: "Question from the agent",
  alarm_raised: "Alarm",
  alarm_cleared: "Alarm cleared",
  alert_muted: "Alerts muted",
  alert_unmuted: "Alerts unmuted",
  limit_wait_started: "Waiting for a usage limit",
  limit_wait_ended: "Usage limit wait ended",
  limit_fallback: "Fallback agent",
  limit_needs_attention: "Usage limit needs attention",
  tamper_needs_attention: "Repeated evidence tampering",
  workspace_rolled_back: "Workspace rolled back",
  worktree_removed: "Worktree removed",
};

const VALUE: Record<string, string> = {
  // Controls
  interrupt: "interrupt",
  kill: "kill",
  resume: "resume",
  force_handoff: "force a fresh context",
  nudge: "nudge",
  approve: "approve",
  reject: "reject",
  request_changes: "request changes",
  terminate: "terminate",
  update_limits: "edit limits",
  answer: "answer",
  // Handoff triggers
  explicit_request: "the agent asked for it",
  context_threshold: "context window nearly full",
  error_threshold: "too many errors",
  token_budget: "token budget reached",
  phase_complete: "phase complete",
  // Breaker, gates, budget
  half_open: "half open",
  closed: "closed",
  open: "open",
  completion: "completion",
  budget: "budget",
  periodic: "periodic",
  ALLOW: "allow",
  THROTTLE: "throttle",
  DENY: "deny",
  ALERT_ONLY: "alert only",
  // Alarms
  runaway: "runaway",
  silent_agent: "silent agent",
  spend_rate: "spend rate",
  needs_attention: "needs attention",
};

/** A value an event carries, as words. */
export function human(value: unknown): string {
  if (value === null || value === undefined || value === "") return "";
  const text = String(value);
  return VALUE[text] ?? text.replace(/_/g, " ").toLowerCase();
}

export const eventLabel = (type: string) => EVENT[type] ?? type.replace(/_/g, " ");

export const statusWords = (status: unknown) =>
  isLoopStatus(status) ? statusDisplay(status).label : String(status ?? "").replace(/_/g, " ");
export const stopWords = (stopType: unknown) =>
  isStopType(stopType) ? (stopTypeLabel(stopType) ?? "") : String(stopType ?? "").replace(/_/g, " ");

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Who acted, in words: the person's name when the server knows it, "agent"
 * for an agent (each iteration's agent has a fresh id; the id is no name),
 * "engine"/"system" for the runtime.
 */
export function actorLabel(e: { actor: string; actorName?: string | null }): string {
  if (e.actorName) return e.actorName;
  if (UUID.test(e.actor)) return "agent";
  if (e.actor === "engine") return "engine";
  if (e.actor === "system") return "system";
  return e.actor;
}

/**
 * Typed engine events. Every state change is one of these, carrying who
 * caused it (`actor`) and why (`reason`), so the runtime can store them as
 * the audit trail without interpreting engine internals.
 */
import type { ControlKind } from "./control-commands";
import type { AgentProgressEvent, Reflection } from "./agent-reports";
import type { IterationStatus, LoopStatus, StopType } from "./stop-types";
import type {
  BreakerStatus,
  BudgetAction,
  GateDecision,
  GateKind,
  HandoffTrigger,
  HealthState,
  InterventionLevel,
} from "./vocabulary";

/** The part of an iteration under way, shown live while it runs. */
export const livePhases = ["agent", "scorers", "verifier", "reflector"] as const;
export type LivePhase = (typeof livePhases)[number];

export interface EventBase {
  loopId: string;
  at: number;
  /** The iteration the event belongs to (0 before the first one). */
  iteration: number;
  /** "engine", "system" or the operator id from a control request. */
  actor: string;
  reason: string;
}

export type EngineEventBody =
  | { type: "loop_started"; goal: string }
  | { type: "iteration_started"; agentId: string; input: string }
  | { type: "agent_progress"; agentId: string; progress: AgentProgressEvent }
  | { type: "phase_started"; phase: LivePhase }
  | { type: "agent_retry"; attempt: number; delayMs: number; error: string }
  | {
      type: "iteration_finished";
      agentId: string;
      status: IterationStatus;
      meanScore: number | null;
      claimMismatch: boolean;
      costUsd: number;
      durationMs: number;
    }
  | { type: "scored"; scores: Record<string, number>; meanScore: number | null }
  | { type: "validated"; valid: boolean; errors: string[] }
  | { type: "verified"; complete: boolean; verdictReason: string }
  | { type: "reflected"; reflection: Reflection }
  | { type: "handoff"; trigger: HandoffTrigger; continuation: string }
  | { type: "health_changed"; from: HealthState; to: HealthState }
  | { type: "intervention"; level: InterventionLevel; message: string }
  | { type: "breaker_changed"; from: BreakerStatus; to: BreakerStatus }
  | { type: "approval_requested"; gateId: string; kind: GateKind; deadlineAt: number | null }
  | {
      type: "approval_decided";
      gateId: string;
      kind: GateKind;
      decision: GateDecision;
      comment: string | null;
      byDefault: boolean;
    }
  | { type: "throttled"; delayMs: number; usedFraction: number }
  | {
      type: "budget_alert";
      action: BudgetAction;
      usedFraction: number;
      /** Spend and cost budget when the alert was raised (enforce mode's throttle alert says them). */
      costUsd?: number;
      maxCostUsd?: number;
    }
  | { type: "control_applied"; requestId: string; command: ControlKind }
  | { type: "control_rejected"; requestId: string; command: ControlKind }
  | { type: "limits_updated"; patch: unknown }
  | { type: "attention_needed"; question: string }
  | { type: "status_changed"; from: LoopStatus; to: LoopStatus }
  | { type: "checkpoint_created"; checkpointId: string; hash: string }
  | { type: "halted"; stopType: StopType; status: LoopStatus }
  | {
      type: "limit_wait_started";
      until: number;
      shared: boolean;
      resetKnown: boolean;
      recurrence: number;
      newPeriod: boolean;
      message: string;
      /** The provider's window and its use, when the agent's stream said (optional: older events lack them). */
      window?: string | null;
      usedPercent?: number | null;
    }
  | { type: "limit_wait_ended"; how: "reset" | "resumed"; waitedMs: number }
  | { type: "limit_fallback"; until: number; message: string; window?: string | null; usedPercent?: number | null }
  | { type: "limit_needs_attention"; recurrences: number }
  /** Repeated evidence tampering paused the loop for an operator (tamper-attention.ts). */
  | { type: "tamper_needs_attention"; iterations: number; tampered: string[] };

export type EngineEvent = EventBase & EngineEventBody;
export type EngineEventType = EngineEvent["type"];

/** Heartbeat-like events are streamed live but not returned for storage. */
export const ephemeralEventTypes: readonly EngineEventType[] = ["agent_progress", "phase_started"];

export function isEphemeral(event: EngineEvent): boolean {
  return ephemeralEventTypes.includes(event.type);
}

/** Accumulates events for a step while streaming them to the sink. */
export class EventLog {
  readonly events: EngineEvent[] = [];

  constructor(
    private readonly base: { loopId: string; now: () => number },
    private readonly sink?: { emit(event: EngineEvent): void | Promise<void> },
  ) {}

  push(iteration: number, actor: string, reason: string, body: EngineEventBody): EngineEvent {
    const event = {
      loopId: this.base.loopId,
      at: this.base.now(),
      iteration,
      actor,
      reason,
      ...body,
    } as EngineEvent;
    this.pushStamped(event);
    return event;
  }

  /** Adds events produced by pure functions (already stamped). */
  append(events: readonly EngineEvent[]): void {
    for (const event of events) this.pushStamped(event);
  }

  private pushStamped(event: EngineEvent): void {
    if (!isEphemeral(event)) this.events.push(event);
    try {
      const pending = this.sink?.emit(event);
      if (pending && typeof (pending as Promise<void>).catch === "function") {
        (pending as Promise<void>).catch(() => undefined);
      }
    } catch {
      // ignored on purpose: events are also returned for storage
    }
  }
}

/**
 * CD's health monitoring as pure functions over timestamps. Heartbeats prove
 * liveness; only progress (progress and tool-call events) resets the stuck
 * clock, because an agent can be alive and still going nowhere.
 */
import type { LoopConfig } from "./config.schema";
import type { AgentProgressEvent } from "./agent-reports";
import type { HealthState, InterventionLevel } from "./vocabulary";

export type HealthConfig = Pick<
  LoopConfig["health"],
  "stuckAfter" | "nudgeInterval" | "nudgesBeforeEscalation" | "escalationTimeout" | "failingAfterErrors"
>;

export interface HealthSnapshot {
  state: HealthState;
  /** Set while an agent call is in flight. */
  runStartedAt: number | null;
  lastHeartbeatAt: number | null;
  lastProgressAt: number | null;
  consecutiveErrors: number;
  nudges: number;
  lastNudgeAt: number | null;
  escalatedAt: number | null;
  terminatedAt: number | null;
  /** Nudge texts waiting to be injected into the next input. */
  reminders: string[];
}

export interface Intervention {
  level: InterventionLevel;
  message: string;
}

export function createHealth(): HealthSnapshot {
  return {
    state: "healthy",
    runStartedAt: null,
    lastHeartbeatAt: null,
    lastProgressAt: null,
    consecutiveErrors: 0,
    nudges: 0,
    lastNudgeAt: null,
    escalatedAt: null,
    terminatedAt: null,
    reminders: [],
  };
}

const SECOND = 1000;

/** A fresh agent gets a fresh intervention ladder. */
export function healthOnRunStart(health: HealthSnapshot, now: number): HealthSnapshot {
  return {
    ...health,
    runStartedAt: now,
    lastHeartbeatAt: now,
    lastProgressAt: now,
    nudges: 0,
    lastNudgeAt: null,
    escalatedAt: null,
  };
}

export function isProgressEvent(event: AgentProgressEvent): boolean {
  return event.kind === "progress" || event.kind === "tool_call";
}

export function healthOnProgress(health: HealthSnapshot, event: AgentProgressEvent, now: number): HealthSnapshot {
  if (!isProgressEvent(event)) return { ...health, lastHeartbeatAt: now };
  // Progress is the "response" CD's ladder waits for: the ladder resets.
  return { ...health, lastHeartbeatAt: now, lastProgressAt: now, nudges: 0, lastNudgeAt: null, escalatedAt: null };
}

export type RunOutcome = "succeeded" | "failed" | "error" | "interrupted" | "rate_limited";

export function healthOnRunEnd(health: HealthSnapshot, outcome: RunOutcome, now: number): HealthSnapshot {
  const consecutiveErrors =
    outcome === "error"
      ? health.consecutiveErrors + 1
      : outcome === "interrupted" || outcome === "rate_limited"
        ? health.consecutiveErrors
        : 0;
  return { ...health, runStartedAt: null, lastHeartbeatAt: now, consecutiveErrors };
}

export function classifyHealth(health: HealthSnapshot, config: HealthConfig, now: number): HealthState {
  if (health.terminatedAt !== null) return "terminated";
  if (config.failingAfterErrors > 0 && health.consecutiveErrors >= config.failingAfterErrors) return "failing";
  if (health.runStartedAt !== null && config.stuckAfter > 0) {
    const sinceProgress = now - (health.lastProgressAt ?? health.runStartedAt);
    if (sinceProgress >= config.stuckAfter * SECOND) return "stuck";
    const sinceHeartbeat = now - (health.lastHeartbeatAt ?? health.runStartedAt);
    if (sinceHeartbeat >= (config.stuckAfter * SECOND) / 2) return "degraded";
  }
  if (health.consecutiveErrors > 0 || health.nudges > 0) return "degraded";
  return "healthy";
}

/** "45 s", "12 min", "2.5 h": never "0 min" for a short stall. */
export function minutes(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const mins = Math.round(ms / 60000);
  return mins < 120 ? `${mins} min` : `${(ms / 3600000).toFixed(1)} h`;
}

export function nudgeMessage(stuckForMs: number): string {
  return (
    `REMINDER: You have been working for ${minutes(stuckForMs)} without progress. ` +
    "Please either update progress, request handoff, or report blockers."
  );
}

/**
 * The intervention ladder, evaluated at any moment: nudge every
 * nudgeInterval while stuck; after the configured nudges went unanswered
 * for one more interval, escalate; escalationTimeout later, terminate.
 */
export function evaluateHealth(
  health: HealthSnapshot,
  config: HealthConfig,
  now: number,
): { health: HealthSnapshot; interventions: Intervention[] } {
  const state = classifyHealth(health, config, now);
  let next: HealthSnapshot = { ...health, state };
  const interventions: Intervention[] = [];
  if (state !== "stuck") return { health: next, interventions };

  const stuckFor = now - (health.lastProgressAt ?? health.runStartedAt ?? now);
  const sinceNudge = health.lastNudgeAt === null ? Infinity : now - health.lastNudgeAt;
  const interval = config.nudgeInterval * SECOND;
  if (health.escalatedAt !== null) {
    if (now - health.escalatedAt >= config.escalationTimeout * SECOND) {
      next = { ...next, state: "terminated", terminatedAt: now };
      interventions.push({
        level: "terminate",
        message: `No progress for ${minutes(stuckFor)}; escalation timed out, terminating the agent.`,
      });
    }
  } else if (health.nudges < config.nudgesBeforeEscalation) {
    if (sinceNudge >= interval) {
      const message = nudgeMessage(stuckFor);
      next = { ...next, nudges: health.nudges + 1, lastNudgeAt: now, reminders: [...health.reminders, message] };
      interventions.push({ level: "nudge", message });
    }
  } else if (health.nudges === 0 || sinceNudge >= interval) {
    next = { ...next, escalatedAt: now };
    interventions.push({
      level: "escalate",
      message: `Agent stuck for ${minutes(stuckFor)} after ${health.nudges} nudge(s); operator attention needed.`,
    });
  }
  return { health: next, interventions };
}

/** Health-failure detection input: CD's "FAILING/TERMINATED" rule. */
export function isHealthFailure(state: HealthState): boolean {
  return state === "failing" || state === "terminated";
}

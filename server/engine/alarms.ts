/**
 * The dashboard's alarms as rules over a loop's signals, judged on the server
 * (the list, the header and the alarm check that writes `alarm_raised` events
 * all use this one function). Pure: the caller reads the signals and the clock.
 */
import type { LoopConfig } from "./config.schema";

export type AlarmsConfig = LoopConfig["alarms"];
export type AlarmKind = "runaway" | "silent" | "spend_rate" | "attention";

export interface AlarmSignals {
  status: string;
  health: string;
  /** Iterations finished within `alarms.runaway.windowSeconds`. */
  iterationsInWindow: number;
  /** Spend of the iterations finished within the last hour. */
  spendLastHourUsd: number;
  /** When the iteration in flight started, or null when none is. */
  inflightStartedAt: number | null;
  /** The agent in flight's last output or heartbeat, or null before its first. */
  lastAgentSignalAt: number | null;
}

export interface LoopAlarm {
  kind: AlarmKind;
  title: string;
  detail: string;
  /** What the policy asks the server to do about it. */
  action: "alert" | "pause";
}

/** A loop that is, or is about to be, working: a runaway or spend rate matters only then. */
export const ALARM_ACTIVE_STATUSES: readonly string[] = ["running", "queued", "waiting", "interrupting"];
/** "Needs attention": a loop in one of these states, or an active loop in one of these health states. */
export const ATTENTION_STATUSES: readonly string[] = ["needs_attention"];
export const ATTENTION_HEALTH_STATES: readonly string[] = ["stuck", "failing"];
const ACTIVE = new Set(ALARM_ACTIVE_STATUSES);
const ATTENTION_STATUS = new Set(ATTENTION_STATUSES);
const ATTENTION_HEALTH = new Set(ATTENTION_HEALTH_STATES);

const usd = (n: number) => `$${n < 1 ? Number(n.toPrecision(4)) : n.toFixed(2)}`;

export function judgeAlarms(signals: AlarmSignals, config: AlarmsConfig, now: number): LoopAlarm[] {
  const alarms: LoopAlarm[] = [];
  const active = ACTIVE.has(signals.status);
  const runaway = config.runaway;
  if (active && runaway.maxIterations > 0 && signals.iterationsInWindow > runaway.maxIterations) {
    alarms.push({
      kind: "runaway",
      title: "Runaway",
      detail: `${signals.iterationsInWindow} iterations in the last ${runaway.windowSeconds} s (limit ${runaway.maxIterations})`,
      action: runaway.action,
    });
  }
  if (signals.status === "running" && signals.inflightStartedAt !== null && config.silentAfterSeconds > 0) {
    const last = Math.max(signals.inflightStartedAt, signals.lastAgentSignalAt ?? 0);
    const quiet = now - last;
    if (quiet > config.silentAfterSeconds * 1000) {
      alarms.push({
        kind: "silent",
        title: "Silent agent",
        detail: `no output or heartbeat for ${Math.round(quiet / 1000)} s`,
        action: "alert",
      });
    }
  }
  if (active && config.maxSpendPerHourUsd > 0 && signals.spendLastHourUsd > config.maxSpendPerHourUsd) {
    alarms.push({
      kind: "spend_rate",
      title: "Spend rate",
      detail: `${usd(signals.spendLastHourUsd)} in the last hour (limit ${usd(config.maxSpendPerHourUsd)})`,
      action: "alert",
    });
  }
  if (ATTENTION_STATUS.has(signals.status) || (active && ATTENTION_HEALTH.has(signals.health))) {
    alarms.push({
      kind: "attention",
      title: "Needs attention",
      detail: ATTENTION_STATUS.has(signals.status) ? "the agent is waiting for an answer" : `health: ${signals.health}`,
      action: "alert",
    });
  }
  return alarms;
}

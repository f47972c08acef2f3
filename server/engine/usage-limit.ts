/**
 * Usage limits: the provider said "you've hit your limit". That is not a
 * failure of the agent: the iteration is `rate_limited` (not counted toward
 * consecutive failures, the breaker or no-progress) and, by the loop's
 * `limits.onUsageLimit` policy, the loop waits for the reset (the default),
 * stops with a clear reason, or switches to its fallback agent until then.
 * A limit that keeps coming back backs off, and after `limits.maxWaits`
 * waits in a row the loop needs attention instead of waiting forever.
 * Loops sharing a provider account learn of a limit from the server's record
 * of it (`joinSharedLimit`) without spending a call to find out.
 */
import type { WaitDecision } from "./decision";
import type { EngineEvent } from "./events";
import type { LoopSnapshot } from "./snapshot";
import { ENGINE, haltLoop, setStatus, stamp } from "./transitions";
import { usageLimitResetAt, type UsageLimitSignal } from "./usage-limit-time";
import type { LimitWait, UsageLimitState } from "./usage-limit-state";

export type { UsageLimitState };

export function emptyUsageLimit(): UsageLimitState {
  return {
    active: null,
    recurrences: 0,
    periodSince: null,
    periods: 0,
    waitedMs: 0,
    resumedAt: null,
    fallbackUntil: null,
  };
}

/** Snapshots written before usage limits existed have no such field. */
export function usageLimitOf(snapshot: LoopSnapshot): UsageLimitState {
  return snapshot.usageLimit ?? emptyUsageLimit();
}

const withLimit = (snapshot: LoopSnapshot, usageLimit: UsageLimitState): LoopSnapshot => ({ ...snapshot, usageLimit });

/** How long to wait for the `n`-th limit in a row when no reset time is known: doubling up to the ceiling. */
export function limitBackoffMs(config: LoopSnapshot["config"]["limits"], n: number): number {
  const seconds = Math.min(config.maxBackoffSeconds, config.backoffSeconds * 2 ** Math.max(0, n - 1));
  return Math.round(seconds * 1000);
}

/** The agent that runs the next iteration. */
export function agentFor(snapshot: LoopSnapshot, now: number, hasFallback: boolean): "primary" | "fallback" {
  const until = usageLimitOf(snapshot).fallbackUntil;
  return hasFallback && snapshot.config.limits.onUsageLimit === "fallback" && until !== null && now < until
    ? "fallback"
    : "primary";
}

/** An iteration that ran without hitting a limit ends the waiting period. */
export function afterWorkingIteration(snapshot: LoopSnapshot): LoopSnapshot {
  const limit = usageLimitOf(snapshot);
  if (limit.recurrences === 0 && limit.periodSince === null) return snapshot;
  return withLimit(snapshot, { ...limit, recurrences: 0, periodSince: null });
}

function startWait(
  snapshot: LoopSnapshot,
  wait: LimitWait,
  recurrence: number,
  now: number,
  actor: string,
  events: EngineEvent[],
): LoopSnapshot {
  const limit = usageLimitOf(snapshot);
  const newPeriod = limit.periodSince === null;
  const next = withLimit(snapshot, {
    ...limit,
    active: wait,
    recurrences: recurrence,
    periodSince: newPeriod ? now : limit.periodSince,
    periods: limit.periods + (newPeriod ? 1 : 0),
  });
  const reason = `waiting for usage limit until ${new Date(wait.until).toISOString()}: ${wait.message}`;
  events.push(
    stamp(next, now, actor, reason, {
      type: "limit_wait_started",
      until: wait.until,
      shared: wait.shared,
      resetKnown: wait.resetKnown,
      recurrence,
      newPeriod,
      message: wait.message,
      window: wait.window ?? null,
      usedPercent: wait.usedPercent ?? null,
    }),
  );
  return setStatus(next, "waiting_for_limit", now, actor, reason, events);
}

/**
 * After a `rate_limited` iteration (the Halt phase runs next): apply the
 * loop's policy. `ran` names the agent that hit the limit.
 */
export function onUsageLimit(
  snapshot: LoopSnapshot,
  signal: UsageLimitSignal,
  ctx: { now: number; ran: "primary" | "fallback"; hasFallback: boolean },
  events: EngineEvent[],
): LoopSnapshot {
  const { now } = ctx;
  const config = snapshot.config.limits;
  const counted = usageLimitOf(snapshot);
  const limit = { ...counted, limitedIterations: (counted.limitedIterations ?? 0) + 1 };
  snapshot = withLimit(snapshot, limit);
  const resetAt = usageLimitResetAt(signal, now, config.timeZone);
  const message = signal.message.slice(0, 500);
  const margin = config.marginSeconds * 1000;

  if (config.onUsageLimit === "stop") {
    const when = resetAt !== null ? `; it resets at ${new Date(resetAt).toISOString()}` : "";
    const reason = `stopped at the provider's usage limit (limits.onUsageLimit = stop)${when}: ${message}`;
    return haltLoop(snapshot, "usage_limit", reason, ENGINE, now, events);
  }
  if (config.onUsageLimit === "fallback" && ctx.ran === "primary" && ctx.hasFallback) {
    const until = (resetAt ?? now + limitBackoffMs(config, 1)) + margin;
    const reason = `usage limit: the fallback agent runs until ${new Date(until).toISOString()}: ${message}`;
    const quota = { window: signal.window ?? null, usedPercent: signal.usedPercent ?? null };
    events.push(stamp(snapshot, now, ENGINE, reason, { type: "limit_fallback", until, message, ...quota }));
    return withLimit(snapshot, { ...limit, fallbackUntil: until });
  }

  const recurrence = limit.recurrences + 1;
  if (recurrence > config.maxWaits) {
    const reason = `the usage limit came back ${limit.recurrences} times in a row after its reset; waiting stopped: ${message}`;
    events.push(
      stamp(snapshot, now, ENGINE, reason, { type: "limit_needs_attention", recurrences: limit.recurrences }),
    );
    const paused = withLimit(
      { ...snapshot, pause: { text: reason, by: ENGINE, at: now } },
      { ...limit, active: null, recurrences: recurrence },
    );
    return setStatus(paused, "needs_attention", now, ENGINE, reason, events);
  }
  // A limit that recurs right after its reset (a weekly cap) backs off instead of retrying at each reset.
  const backoff = limitBackoffMs(config, recurrence === 1 ? 1 : recurrence - 1);
  const until =
    resetAt !== null
      ? Math.max(resetAt + margin, recurrence > 1 ? now + backoff : 0)
      : now + limitBackoffMs(config, recurrence);
  const wait = {
    since: now,
    until,
    message,
    shared: false,
    resetKnown: resetAt !== null,
    window: signal.window ?? null,
    usedPercent: signal.usedPercent ?? null,
  };
  return startWait(snapshot, wait, recurrence, now, ENGINE, events);
}

/** What the server recorded about a limit on this loop's provider account. */
export interface SharedLimitWindow {
  until: number;
  window?: string | null;
  usedPercent?: number | null;
  /** When the first loop learned of it. */
  learnedAt: number;
  message: string;
}

/**
 * Before dispatching an attempt: another loop on the same account already hit
 * the limit, so this one waits with it instead of spending a call to find out.
 */
export function joinSharedLimit(
  snapshot: LoopSnapshot,
  window: SharedLimitWindow,
  now: number,
  hasFallback: boolean,
): { snapshot: LoopSnapshot; events: EngineEvent[] } {
  const limit = usageLimitOf(snapshot);
  const events: EngineEvent[] = [];
  const idle = snapshot.halt !== null || snapshot.pause !== null || snapshot.gate !== null;
  const overridden = limit.resumedAt !== null && window.learnedAt <= limit.resumedAt;
  const covered = limit.active !== null && limit.active.until >= window.until;
  if (idle || overridden || covered || window.until <= now) return { snapshot, events };
  const policy = snapshot.config.limits.onUsageLimit;
  if (policy === "fallback" && hasFallback) {
    if ((limit.fallbackUntil ?? 0) >= window.until) return { snapshot, events };
    const reason = `usage limit on this account (another loop hit it): the fallback agent runs until ${new Date(window.until).toISOString()}`;
    events.push(
      stamp(snapshot, now, ENGINE, reason, { type: "limit_fallback", until: window.until, message: window.message }),
    );
    return { snapshot: withLimit(snapshot, { ...limit, fallbackUntil: window.until }), events };
  }
  if (policy === "stop") {
    const reason = `stopped at the provider's usage limit (limits.onUsageLimit = stop; another loop on this account hit it): ${window.message}`;
    return { snapshot: haltLoop(snapshot, "usage_limit", reason, ENGINE, now, events), events };
  }
  const wait = {
    since: now,
    until: window.until,
    message: window.message,
    shared: true,
    resetKnown: true,
    window: window.window ?? null,
    usedPercent: window.usedPercent ?? null,
  };
  return { snapshot: startWait(snapshot, wait, limit.recurrences, now, ENGINE, events), events };
}

/** Ends the wait under way: the reset passed, or an operator said "resume now". */
export function endLimitWait(
  snapshot: LoopSnapshot,
  now: number,
  actor: string,
  how: "reset" | "resumed",
  events: EngineEvent[],
): LoopSnapshot {
  const limit = usageLimitOf(snapshot);
  if (limit.active === null) return snapshot;
  const waitedMs = Math.max(0, Math.min(now, limit.active.until) - limit.active.since);
  const reason = how === "reset" ? "the usage limit reset" : "resumed before the usage limit reset";
  const next = withLimit(snapshot, {
    ...limit,
    active: null,
    waitedMs: limit.waitedMs + waitedMs,
    resumedAt: how === "resumed" ? now : limit.resumedAt,
  });
  events.push(stamp(next, now, actor, reason, { type: "limit_wait_ended", how, waitedMs }));
  return next;
}

/** The safe point's part: keep waiting, or end a wait whose time has come. */
export function usageLimitPreflight(
  snapshot: LoopSnapshot,
  now: number,
  events: EngineEvent[],
): { snapshot: LoopSnapshot; decision: WaitDecision | null } {
  const active = usageLimitOf(snapshot).active;
  if (active === null) return { snapshot, decision: null };
  if (now >= active.until) return { snapshot: endLimitWait(snapshot, now, ENGINE, "reset", events), decision: null };
  const decision = limitWaitDecision(snapshot);
  const waiting = setStatus(snapshot, "waiting_for_limit", now, ENGINE, decision!.detail, events);
  return { snapshot: waiting, decision };
}

export function limitWaitDecision(snapshot: LoopSnapshot): WaitDecision | null {
  const active = usageLimitOf(snapshot).active;
  if (active === null) return null;
  return {
    kind: "wait",
    untilMs: active.until,
    reason: "usage_limit",
    detail: `waiting for usage limit: ${active.message}`,
  };
}

/**
 * The alarms, judged on the server so they reach alert channels when nobody
 * has the dashboard open, by the same rules the list and header show
 * (server/loops/loop-alarms.service.ts, rules in server/engine/alarms.ts).
 * A newly raised alarm is an `alarm_raised` event, which fills the alert
 * outbox like any other; the same alarm is not raised again for a loop within
 * the quiet period. A runaway whose policy says `action: "pause"` also stores
 * an interrupt request (actor "alarm", the reason saying why): the runtime
 * applies it at its next safe point and records it like an operator's.
 *
 * Open pages learn of an alarm from these events (the event stream makes
 * them refetch the loop), so every change of a loop's alarms is written, not
 * only the alerting ones: given the `seen` state of the previous check, an
 * alarm that comes back within the quiet period is an `alarm_raised` marked
 * `repeat` (no alert), and one that goes away is `alarm_cleared`. The state
 * lives in the checking process, seeded for a loop it has not seen yet from
 * the last change written within the quiet period, so a restart neither
 * writes a still-raised alarm again nor forgets to clear one that ended while
 * it was down. With several app instances a change may still be written once
 * per instance, which costs an audit row.
 * An alarm counts as cleared only once it has been gone for `clearAfterMs`, so
 * a loop hovering at its runaway limit does not write raised/cleared pairs
 * every second.
 */
import { randomUUID } from "node:crypto";
import { ALARM_CLEARED_EVENT, ALARM_EVENT } from "../alert-kinds";
import type { Database } from "../db/client";
import { alarmCandidates } from "../db/alerts.repo";
import { insertControlRequest } from "../db/controls.repo";
import { appendEvents } from "../db/events.repo";
import { inTransaction } from "../db/tx";
import { currentAlarms, type LoopAlarm } from "../loops/loop-alarms.service";

/** The same alarm is not raised again for a loop within this long. */
export const ALARM_QUIET_MS = 30 * 60_000;
/** Alarms written as events; "needs attention" is state only (its own events come from the loop). */
const EVENT_ALARMS = new Set<LoopAlarm["kind"]>(["runaway", "silent", "spend_rate"]);
export const ALARM_ACTOR = "alarm";

export interface Alarm {
  loopId: string;
  alarm: LoopAlarm["kind"];
  detail: string;
  action: LoopAlarm["action"];
}

/** Per loop, the alarm kinds (written as events) it has had recently, each with when it was last seen. */
export type AlarmState = Map<string, Map<LoopAlarm["kind"], number>>;

/** An alarm absent for less than this is still shown as raised (no cleared/raised flapping). */
export const ALARM_CLEAR_AFTER_MS = 10_000;

export interface AlarmCheckOptions {
  quietMs?: number;
  /** The previous check's state, updated in place; without it only alerting alarms are written. */
  seen?: AlarmState;
  /** Called after events were committed (wakes this process's live streams at once). */
  onEventsWritten?: () => void;
  clearAfterMs?: number;
}

/** Judges the active loops' alarms and writes what changed; returns the alarms that alert. */
export async function checkAlarms(db: Database, now: number, options: AlarmCheckOptions = {}): Promise<Alarm[]> {
  const { quietMs = ALARM_QUIET_MS, seen, clearAfterMs = ALARM_CLEAR_AFTER_MS } = options;
  const candidates = await alarmCandidates(db.prisma, { quietSince: new Date(now - quietMs) });
  const judged = candidates.length ? await currentAlarms(db.prisma, candidates, now) : new Map<string, LoopAlarm[]>();
  const alarms: Alarm[] = [];
  const repeats: Alarm[] = [];
  const cleared: { loopId: string; alarm: LoopAlarm["kind"] }[] = [];
  for (const loop of candidates) {
    const current = (judged.get(loop.id) ?? []).filter((a) => EVENT_ALARMS.has(a.kind));
    const before = seen?.get(loop.id) ?? (seen ? seededFromEvents(loop.shownRaised, now) : undefined);
    for (const a of current) {
      const alarm: Alarm = { loopId: loop.id, alarm: a.kind, detail: a.detail, action: a.action };
      if (!loop.raisedRecently.includes(a.kind)) alarms.push(alarm);
      else if (seen && !before?.has(a.kind)) repeats.push(alarm);
    }
    const next = new Map(before ?? []);
    for (const a of current) next.set(a.kind, now);
    for (const [kind, lastSeen] of next)
      if (now - lastSeen >= clearAfterMs) {
        next.delete(kind);
        cleared.push({ loopId: loop.id, alarm: kind });
      }
    seen?.set(loop.id, next);
  }
  // A loop that stopped being active leaves the state; its status change already reached open pages.
  if (seen) for (const id of seen.keys()) if (!judged.has(id)) seen.delete(id);
  if (alarms.length + repeats.length + cleared.length === 0) return [];
  await inTransaction(db.prisma, async (tx) => {
    await appendEvents(tx, [
      ...alarms.map((a) => ({
        loopId: a.loopId,
        type: ALARM_EVENT,
        actor: "system",
        reason: `${TITLES[a.alarm]}: ${a.detail}${a.action === "pause" ? " (pausing the loop, alarms.runaway.action)" : ""}`,
        // The title too: an open page shows the alarm from the event, before a pause it causes lands.
        payload: { alarm: a.alarm, title: TITLES[a.alarm], detail: a.detail, action: a.action },
      })),
      // Back within the quiet period: shown, not alerted again, and no second pause.
      ...repeats.map((a) => ({
        loopId: a.loopId,
        type: ALARM_EVENT,
        actor: "system",
        reason: `${TITLES[a.alarm]}: ${a.detail} (again; alerted already)`,
        payload: { alarm: a.alarm, title: TITLES[a.alarm], detail: a.detail, action: a.action, repeat: true },
      })),
      ...cleared.map((c) => ({
        loopId: c.loopId,
        type: ALARM_CLEARED_EVENT,
        actor: "system",
        reason: `${TITLES[c.alarm]} alarm cleared`,
        payload: { alarm: c.alarm },
      })),
    ]);
    for (const a of alarms.filter((x) => x.action === "pause")) {
      await insertControlRequest(tx, {
        id: randomUUID(),
        loopId: a.loopId,
        kind: "interrupt",
        actor: ALARM_ACTOR,
        actorId: null,
        reason: `Runaway alarm: ${a.detail}; the policy alarms.runaway.action is "pause"`,
      });
    }
  });
  options.onEventsWritten?.();
  return alarms;
}

function seededFromEvents(shownRaised: string[], now: number) {
  const kinds = shownRaised.filter((k): k is LoopAlarm["kind"] => EVENT_ALARMS.has(k as LoopAlarm["kind"]));
  return new Map(kinds.map((k) => [k, now]));
}

const TITLES: Record<LoopAlarm["kind"], string> = {
  runaway: "Runaway",
  silent: "Silent agent",
  spend_rate: "Spend rate",
  attention: "Needs attention",
};

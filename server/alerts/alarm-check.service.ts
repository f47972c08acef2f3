/**
 * The alarms, judged on the server so they reach alert channels when nobody
 * has the dashboard open, by the same rules the list and header show
 * (server/loops/loop-alarms.service.ts, rules in server/engine/alarms.ts).
 * A newly raised alarm is an `alarm_raised` event, which fills the alert
 * outbox like any other; the same alarm is not raised again for a loop within
 * the quiet period. A runaway whose policy says `action: "pause"` also stores
 * an interrupt request (actor "alarm", the reason saying why): the runtime
 * applies it at its next safe point and records it like an operator's.
 */
import { randomUUID } from "node:crypto";
import { ALARM_EVENT } from "../alert-kinds";
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

export async function checkAlarms(db: Database, now: number, quietMs = ALARM_QUIET_MS): Promise<Alarm[]> {
  const candidates = await alarmCandidates(db.prisma, { quietSince: new Date(now - quietMs) });
  if (candidates.length === 0) return [];
  const judged = await currentAlarms(db.prisma, candidates, now);
  const alarms = candidates.flatMap((loop) =>
    (judged.get(loop.id) ?? [])
      .filter((a) => EVENT_ALARMS.has(a.kind) && !loop.raisedRecently.includes(a.kind))
      .map((a): Alarm => ({ loopId: loop.id, alarm: a.kind, detail: a.detail, action: a.action })),
  );
  if (alarms.length === 0) return [];
  await inTransaction(db.prisma, async (tx) => {
    await appendEvents(
      tx,
      alarms.map((a) => ({
        loopId: a.loopId,
        type: ALARM_EVENT,
        actor: "system",
        reason: `${TITLES[a.alarm]}: ${a.detail}${a.action === "pause" ? " (pausing the loop, alarms.runaway.action)" : ""}`,
        payload: { alarm: a.alarm, detail: a.detail, action: a.action },
      })),
    );
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
  return alarms;
}

const TITLES: Record<LoopAlarm["kind"], string> = {
  runaway: "Runaway",
  silent: "Silent agent",
  spend_rate: "Spend rate",
  attention: "Needs attention",
};

/**
 * Snapshot transitions shared by the pre-iteration and Halt safe points.
 * Each takes the events array to append to, so every state change leaves an
 * audit event with who (actor) and why (reason).
 */
import type { EngineEvent, EngineEventBody } from "./events";
import type { LoopSnapshot } from "./snapshot";
import { isSuccess, statusForStop, type LoopStatus, type StopType } from "./stop-types";

export const ENGINE = "engine";
export const SYSTEM = "system";

export function stamp(
  snapshot: LoopSnapshot,
  now: number,
  actor: string,
  reason: string,
  body: EngineEventBody,
): EngineEvent {
  const base = { loopId: snapshot.loopId, at: now, iteration: snapshot.state.iteration, actor, reason };
  return { ...base, ...body } as EngineEvent;
}

export function setStatus(
  snapshot: LoopSnapshot,
  to: LoopStatus,
  now: number,
  actor: string,
  reason: string,
  out: EngineEvent[],
): LoopSnapshot {
  if (snapshot.status === to) return snapshot;
  out.push(stamp(snapshot, now, actor, reason, { type: "status_changed", from: snapshot.status, to }));
  return { ...snapshot, status: to, updatedAt: now };
}

/** Halting is final: the first halt wins and later ones are ignored. */
export function haltLoop(
  snapshot: LoopSnapshot,
  stopType: StopType,
  reason: string,
  actor: string,
  now: number,
  out: EngineEvent[],
): LoopSnapshot {
  if (snapshot.halt !== null) return snapshot;
  const status = statusForStop(stopType);
  let next: LoopSnapshot = {
    ...snapshot,
    halt: { stopType, reason, at: now, actor },
    gate: null,
    pause: null,
    attention: null,
    work: isSuccess(stopType) ? { ...snapshot.work, phase: "COMPLETE" } : snapshot.work,
  };
  next = setStatus(next, status, now, actor, reason, out);
  out.push(stamp(next, now, actor, reason, { type: "halted", stopType, status }));
  return next;
}

/**
 * Phase 6, Halt: the safe point after an iteration. Order matters and is
 * deliberate: an abort cause first (kill/cancel), then stored controls
 * (operator intent), then the detectors, then approval gates, then pause,
 * then pacing.
 */
import { applyControls } from "./controls";
import { pacingWait, standingDecision, type StepDecision } from "./decision";
import { createDefaultDetectors, detectorContext, type StopDetector } from "./detectors";
import type { EngineEvent, EventLog } from "./events";
import { budgetGateDue, openGate, periodicGateDue } from "./gates";
import type { ControlAck, ControlRequest, Deps, EnginePorts } from "./ports";
import type { AbortCause } from "./run-phase";
import type { LoopSnapshot } from "./snapshot";
import { isSuccess } from "./stop-types";
import { ENGINE, haltLoop, setStatus } from "./transitions";

export const defaultDetectors: StopDetector = createDefaultDetectors();

async function applyStoredControls(
  snapshot: LoopSnapshot,
  ports: EnginePorts,
  now: number,
  events: EngineEvent[],
): Promise<{ snapshot: LoopSnapshot; acks: ControlAck[] }> {
  if (!ports.controls || snapshot.halt !== null) return { snapshot, acks: [] };
  let requests: ControlRequest[];
  try {
    requests = await ports.controls.poll(snapshot.loopId);
  } catch {
    // Unreachable controls stay stored; the next safe point applies them.
    return { snapshot, acks: [] };
  }
  const applied = applyControls(snapshot, requests, now);
  events.push(...applied.events);
  for (const ack of applied.acks) {
    try {
      await ports.controls.ack(snapshot.loopId, ack);
    } catch {
      // The ack is also returned in the step result for the runtime to store.
    }
  }
  return { snapshot: applied.snapshot, acks: applied.acks };
}

export async function haltPhase(args: {
  snapshot: LoopSnapshot;
  ports: EnginePorts;
  deps: Pick<Deps, "now" | "newId">;
  log: EventLog;
  cause: AbortCause | null;
  detectors?: StopDetector;
}): Promise<{ snapshot: LoopSnapshot; decision: StepDecision; acks: ControlAck[] }> {
  const { ports, deps, cause } = args;
  const now = deps.now();
  const events: EngineEvent[] = [];
  let next = args.snapshot;

  if (cause?.kind === "cancel") next = haltLoop(next, "cancelled", cause.reason, cause.by, now, events);
  // A kill aborts the running agent and pauses the loop: the operator decides
  // what happens next (resume, nudge, terminate). It is not an ending.
  if (cause?.kind === "kill" && next.pause === null) {
    next = { ...next, pause: { text: cause.reason, by: cause.by, at: now } };
  }

  const controlled = await applyStoredControls(next, ports, now, events);
  next = controlled.snapshot;

  if (next.halt === null) {
    const stop = (args.detectors ?? defaultDetectors).check(detectorContext(next, now));
    if (stop.shouldStop && isSuccess(stop.stopType) && next.config.approvals.beforeCompletion.enabled) {
      const request = { kind: "completion" as const, reason: stop.reason, stopType: stop.stopType, percent: null };
      next = openGate(next, request, deps, now, events);
    } else if (stop.shouldStop) {
      next = haltLoop(next, stop.stopType, stop.reason, ENGINE, now, events);
    }
  }
  if (next.halt === null && next.gate === null) {
    const percent = budgetGateDue(next);
    if (percent !== null) {
      const request = { kind: "budget" as const, reason: `Budget use crossed ${percent}%`, stopType: null, percent };
      next = openGate(next, request, deps, now, events);
    } else if (periodicGateDue(next)) {
      const reason = `Periodic review after iteration ${next.state.iteration}`;
      next = openGate(next, { kind: "periodic", reason, stopType: null, percent: null }, deps, now, events);
    }
  }

  const standing = standingDecision(next);
  if (standing?.kind === "pause" && next.status !== "paused") {
    next = setStatus(next, "paused", now, next.pause!.by, standing.reason, events);
  }
  args.log.append(events);
  if (standing) return { snapshot: next, decision: standing, acks: controlled.acks };
  return { snapshot: next, decision: pacingWait(next, now) ?? { kind: "continue" }, acks: controlled.acks };
}

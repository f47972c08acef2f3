/**
 * Operator control requests are stored requests; this applies them at a safe
 * point (before an iteration, or in its Halt phase) and acknowledges each
 * one, applied or rejected with a note. Pure: the caller polls and acks.
 */
import { applyConfigPatch, LoopConfigError } from "./config.schema";
import type { EngineEvent } from "./events";
import { resolveGate } from "./gates";
import { continuationPrompt } from "./handoff";
import type { ControlAck, ControlRequest } from "./ports";
import type { LoopSnapshot } from "./snapshot";
import { haltLoop, setStatus, stamp } from "./transitions";
import { errorMessage } from "./validators";

export interface ControlApplication {
  snapshot: LoopSnapshot;
  acks: ControlAck[];
  events: EngineEvent[];
}

type Outcome = { snapshot: LoopSnapshot; rejected?: string; note?: string };

export function forcedContinuation(snapshot: LoopSnapshot): string {
  return continuationPrompt({
    iteration: snapshot.state.iteration,
    phase: snapshot.work.phase,
    agentId: snapshot.last.agentId ?? "(none)",
    checkpointId: snapshot.last.checkpointId ?? "(none)",
    completed: snapshot.work.completed,
    pending: snapshot.work.pending,
    blocked: snapshot.work.blocked,
    decisions: snapshot.work.decisions,
    nextSteps: snapshot.work.nextSteps,
  });
}

function applyOne(snapshot: LoopSnapshot, request: ControlRequest, now: number, out: EngineEvent[]): Outcome {
  const { command, by } = request;
  const why = request.reason ?? `operator ${command.type}`;
  if (snapshot.halt !== null) return { snapshot, rejected: "the loop has already halted" };
  const interruptsAllowed = snapshot.config.stop.enableUserInterrupt;
  switch (command.type) {
    case "terminate":
      return { snapshot: haltLoop(snapshot, "explicit_stop", why, by, now, out) };
    // Between iterations a kill has nothing to abort: it pauses, like an
    // interrupt (during an iteration the run phase aborts the agent first).
    case "kill":
    case "interrupt": {
      if (!interruptsAllowed) return { snapshot, rejected: "user interrupts are disabled by config" };
      if (snapshot.pause !== null) return { snapshot, rejected: "already paused" };
      const paused = { ...snapshot, pause: { text: why, by, at: now } };
      return { snapshot: snapshot.gate ? paused : setStatus(paused, "paused", now, by, why, out) };
    }
    case "resume": {
      if (snapshot.pause === null) return { snapshot, rejected: "the loop is not paused" };
      const resumed = { ...snapshot, pause: null };
      return { snapshot: resumed.gate ? resumed : setStatus(resumed, "running", now, by, why, out) };
    }
    case "force_handoff": {
      const continuation = forcedContinuation(snapshot);
      out.push(stamp(snapshot, now, by, why, { type: "handoff", trigger: "explicit_request", continuation }));
      const plan = { ...snapshot.plan, continuation, handoffTrigger: "explicit_request" as const };
      return { snapshot: { ...snapshot, plan } };
    }
    case "nudge": {
      if (command.message.trim() === "") return { snapshot, rejected: "a nudge needs a message" };
      const nudges = [...snapshot.inbox.nudges, { text: command.message, by, at: now }];
      return { snapshot: { ...snapshot, inbox: { ...snapshot.inbox, nudges } } };
    }
    case "approve":
    case "reject":
    case "request_changes": {
      const gate = snapshot.gate;
      if (gate === null) return { snapshot, rejected: "no approval is pending" };
      if (command.gateId !== undefined && command.gateId !== gate.id) {
        return { snapshot, rejected: `gate ${command.gateId} is no longer pending` };
      }
      const comment = command.comment?.trim() ? command.comment : null;
      return { snapshot: resolveGate(snapshot, command.type, comment, by, now, out) };
    }
    case "update_limits": {
      try {
        const config = applyConfigPatch(snapshot.config, command.patch);
        out.push(stamp(snapshot, now, by, why, { type: "limits_updated", patch: command.patch }));
        return {
          snapshot: { ...snapshot, config, state: { ...snapshot.state, maxHistory: config.reflection.maxHistory } },
        };
      } catch (error) {
        const message = error instanceof LoopConfigError ? error.issues.join("; ") : errorMessage(error);
        return { snapshot, rejected: message };
      }
    }
  }
}

export function applyControls(
  snapshot: LoopSnapshot,
  requests: readonly ControlRequest[],
  now: number,
): ControlApplication {
  const events: EngineEvent[] = [];
  const acks: ControlAck[] = [];
  let current = snapshot;
  for (const request of requests) {
    const outcome = applyOne(current, request, now, events);
    current = outcome.snapshot;
    const type = request.command.type;
    if (outcome.rejected !== undefined) {
      acks.push({ requestId: request.id, outcome: "rejected", note: outcome.rejected, at: now });
      const body = { type: "control_rejected" as const, requestId: request.id, command: type };
      events.push(stamp(current, now, request.by, outcome.rejected, body));
    } else {
      acks.push({ requestId: request.id, outcome: "applied", note: outcome.note ?? `${type} applied`, at: now });
      const body = { type: "control_applied" as const, requestId: request.id, command: type };
      events.push(stamp(current, now, request.by, request.reason ?? type, body));
    }
  }
  return { snapshot: { ...current, updatedAt: now }, acks, events };
}

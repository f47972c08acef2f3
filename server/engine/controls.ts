/**
 * Operator control requests are stored requests; this applies them at a safe
 * point (before an iteration, or in its Halt phase) and answers each one,
 * applied or rejected with a note. Pure: the driver reads the requests and
 * stores the acks with the step that applied them, so each request takes
 * effect exactly once. What every kind does is decided here and nowhere else.
 */
import { applyConfigPatch, LoopConfigError } from "./config.schema";
import type { ControlAck, ControlRequest } from "./control-commands";
import type { EngineEvent } from "./events";
import { closeGate, resolveGate } from "./gates";
import { continuationPrompt } from "./handoff";
import type { LoopSnapshot } from "./snapshot";
import { haltLoop, setStatus, stamp } from "./transitions";
import { endLimitWait, usageLimitOf } from "./usage-limit";
import { errorMessage } from "./validators";

export interface ControlApplication {
  snapshot: LoopSnapshot;
  acks: ControlAck[];
  events: EngineEvent[];
}

export interface ApplyOptions {
  /** The kill request whose abort ended the running agent (its note says so). */
  abortedBy?: string;
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

function applyOne(
  snapshot: LoopSnapshot,
  request: ControlRequest,
  now: number,
  out: EngineEvent[],
  options: ApplyOptions,
): Outcome {
  const { command, by } = request;
  const why = request.reason ?? `operator ${command.kind}`;
  if (snapshot.halt !== null) return { snapshot, rejected: "the loop has already halted" };
  switch (command.kind) {
    case "terminate": {
      // A pending approval is answered too, so it is not left open on an ended loop.
      const closed = closeGate(snapshot, { decision: "terminate", comment: null, actor: by }, now, out);
      return { snapshot: haltLoop(closed, command.stopType ?? "explicit_stop", why, by, now, out) };
    }
    // Both pause the loop. A kill that lands while an agent runs aborts it
    // first (the driver's kill watch); between iterations there is nothing to
    // abort, so it pauses at once, gate or not: a pause outranks a gate, and
    // resuming returns to the approval that is still pending.
    case "kill":
    case "interrupt": {
      if (!snapshot.config.stop.enableUserInterrupt) {
        return { snapshot, rejected: "user interrupts are disabled by config" };
      }
      if (snapshot.pause !== null) return { snapshot, rejected: "already paused" };
      const paused = setStatus({ ...snapshot, pause: { text: why, by, at: now } }, "paused", now, by, why, out);
      const aborted = command.kind === "kill" && options.abortedBy === request.id;
      const note =
        command.kind === "interrupt"
          ? "interrupt applied: the loop is paused"
          : aborted
            ? "kill applied: the running agent was aborted and the loop is paused"
            : "kill applied: no agent was running; the loop is paused";
      return { snapshot: paused, note };
    }
    case "resume": {
      // "Resume now" on a loop waiting for a usage limit: try the agent before the reset.
      if (snapshot.pause === null && usageLimitOf(snapshot).active !== null) {
        const ended = endLimitWait(snapshot, now, by, "resumed", out);
        return { snapshot: setStatus(ended, "running", now, by, why, out) };
      }
      if (snapshot.pause === null) return { snapshot, rejected: "the loop is not paused" };
      const limit = usageLimitOf(snapshot);
      // Out of needs_attention: the operator starts the limit's count afresh.
      const cleared = limit.recurrences > 0 ? { ...snapshot, usageLimit: { ...limit, recurrences: 0 } } : snapshot;
      const resumed = { ...cleared, pause: null };
      const to = resumed.attention ? "needs_attention" : resumed.gate ? "awaiting_approval" : "running";
      return { snapshot: setStatus(resumed, to, now, by, why, out) };
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
      if (snapshot.pause !== null)
        return { snapshot, rejected: "the loop is paused; resume it to answer the approval" };
      if (command.gateId !== undefined && command.gateId !== gate.id) {
        return { snapshot, rejected: `gate ${command.gateId} is no longer pending` };
      }
      const comment = command.comment?.trim() ? command.comment : null;
      return { snapshot: resolveGate(snapshot, { decision: command.kind, comment, actor: by }, now, out) };
    }
    case "answer": {
      if (!snapshot.attention) return { snapshot, rejected: "the loop is not waiting for an answer" };
      const text = command.message.trim();
      const plan = text === "" ? snapshot.plan : { ...snapshot.plan, answer: { text, by, at: now } };
      const answered = { ...snapshot, attention: null, plan };
      // A paused loop stays paused; resuming it runs the answered iteration.
      if (answered.pause !== null) return { snapshot: answered };
      const to = answered.gate ? "awaiting_approval" : "running";
      const note = text === "" ? "continuing without an answer" : "the answer goes into the next input";
      return { snapshot: setStatus(answered, to, now, by, why, out), note };
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

/** Applies requests in order; each gets exactly one ack and one control_applied/control_rejected event. */
export function applyControls(
  snapshot: LoopSnapshot,
  requests: readonly ControlRequest[],
  now: number,
  options: ApplyOptions = {},
): ControlApplication {
  const events: EngineEvent[] = [];
  const acks: ControlAck[] = [];
  let current = snapshot;
  for (const request of requests) {
    const outcome = applyOne(current, request, now, events, options);
    current = outcome.snapshot;
    const kind = request.command.kind;
    if (outcome.rejected !== undefined) {
      acks.push({ requestId: request.id, outcome: "rejected", note: outcome.rejected, at: now });
      const body = { type: "control_rejected" as const, requestId: request.id, command: kind };
      events.push(stamp(current, now, request.by, outcome.rejected, body));
    } else {
      acks.push({ requestId: request.id, outcome: "applied", note: outcome.note ?? `${kind} applied`, at: now });
      const body = { type: "control_applied" as const, requestId: request.id, command: kind };
      events.push(stamp(current, now, request.by, request.reason ?? kind, body));
    }
  }
  return { snapshot: { ...current, updatedAt: now }, acks, events };
}

/** Requests not answered yet in this step (a safe point never applies one twice). */
export function unanswered(requests: readonly ControlRequest[], acks: readonly ControlAck[]): ControlRequest[] {
  const answered = new Set(acks.map((a) => a.requestId));
  return requests.filter((r) => !answered.has(r.id));
}

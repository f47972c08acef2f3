/**
 * Drivers. `step` is one safe point plus at most one iteration: the unit a
 * durable runtime executes, stores, and schedules again. `runLoop` is the
 * in-memory driver that repeats steps until the loop halts.
 */
import type { Checkpoint } from "./checkpoint";
import type { StepDecision } from "./decision";
import type { EngineEvent } from "./events";
import { EventLog } from "./events";
import { runIteration, type IterationOptions } from "./iteration";
import type { IterationRecord } from "./iteration-record";
import type { ControlAck, ControlRequest, Deps, EnginePorts } from "./ports";
import { beforeIteration } from "./preflight";
import { buildResult, type LoopResult } from "./report";
import { abortCauseOf } from "./run-phase";
import { createLoop, type LoopSnapshot } from "./snapshot";
import { haltLoop, SYSTEM } from "./transitions";
import { errorMessage } from "./validators";

export interface StepOutcome {
  snapshot: LoopSnapshot;
  decision: StepDecision;
  events: EngineEvent[];
  acks: ControlAck[];
  /** Present when the step ran an iteration. */
  iteration: { record: IterationRecord; checkpoint: Checkpoint } | null;
}

async function pollControls(ports: EnginePorts, loopId: string): Promise<ControlRequest[]> {
  if (!ports.controls) return [];
  try {
    return await ports.controls.poll(loopId);
  } catch {
    return [];
  }
}

async function ackAll(ports: EnginePorts, loopId: string, acks: readonly ControlAck[]): Promise<void> {
  for (const ack of acks) {
    try {
      await ports.controls?.ack(loopId, ack);
    } catch {
      // Returned in the outcome as well; the runtime stores it.
    }
  }
}

/** Cancels a loop outside an iteration (the external AbortSignal fired). */
export function cancelLoop(
  snapshot: LoopSnapshot,
  now: number,
  reason: unknown,
): { snapshot: LoopSnapshot; events: EngineEvent[] } {
  const events: EngineEvent[] = [];
  const cause = abortCauseOf(reason);
  const next = cause.kind === "kill"
    ? haltLoop(snapshot, "user_interrupted", cause.reason, cause.by, now, events)
    : haltLoop(snapshot, "cancelled", cause.reason, cause.by ?? SYSTEM, now, events);
  return { snapshot: next, events };
}

export async function step(
  snapshot: LoopSnapshot,
  ports: EnginePorts,
  deps: Deps,
  signal?: AbortSignal,
  options: IterationOptions = {},
): Promise<StepOutcome> {
  const log = new EventLog({ loopId: snapshot.loopId, now: deps.now }, ports.events);
  if (signal?.aborted && snapshot.halt === null) {
    const cancelled = cancelLoop(snapshot, deps.now(), signal.reason);
    log.append(cancelled.events);
    const decision = haltOf(cancelled.snapshot);
    return { snapshot: cancelled.snapshot, decision, events: log.events, acks: [], iteration: null };
  }
  const pre = beforeIteration(snapshot, await pollControls(ports, snapshot.loopId), deps);
  log.append(pre.events);
  await ackAll(ports, snapshot.loopId, pre.acks);
  if (pre.decision.kind !== "run") {
    return { snapshot: pre.snapshot, decision: pre.decision, events: log.events, acks: pre.acks, iteration: null };
  }
  const result = await runIteration(pre.snapshot, ports, deps, signal, options);
  return {
    snapshot: result.snapshot,
    decision: result.decision,
    events: [...log.events, ...result.events],
    acks: [...pre.acks, ...result.acks],
    iteration: { record: result.record, checkpoint: result.checkpoint },
  };
}

function haltOf(snapshot: LoopSnapshot): StepDecision {
  return { kind: "halt", stopType: snapshot.halt!.stopType, reason: snapshot.halt!.reason };
}

export interface RunLoopOptions extends IterationOptions {
  ports: EnginePorts;
  deps: Deps;
  /** Start a new loop from goal + config ... */
  goal?: string;
  config?: unknown;
  /** ... or continue an existing one (e.g. restored from a checkpoint). */
  snapshot?: LoopSnapshot;
  signal?: AbortSignal;
  /** Called after every step, e.g. to persist it. */
  onStep?: (outcome: StepOutcome) => void | Promise<void>;
}

/** Runs until halt: honours waits through deps.sleep, approvals and pauses by polling controls. */
export async function runLoop(options: RunLoopOptions): Promise<LoopResult> {
  const { ports, deps, signal } = options;
  let snapshot = options.snapshot ?? createLoop(options.goal ?? "", options.config ?? {}, deps);
  const records: IterationRecord[] = [];
  let lastCheckpoint: Checkpoint | null = null;
  for (;;) {
    let outcome: StepOutcome;
    try {
      outcome = await step(snapshot, ports, deps, signal, options);
    } catch (error) {
      // A bug or a broken port outside the guarded phases: stop, and say why.
      const events: EngineEvent[] = [];
      snapshot = haltLoop(snapshot, "system_error", errorMessage(error), SYSTEM, deps.now(), events);
      new EventLog({ loopId: snapshot.loopId, now: deps.now }, ports.events).append(events);
      break;
    }
    snapshot = outcome.snapshot;
    if (outcome.iteration) {
      records.push(outcome.iteration.record);
      lastCheckpoint = outcome.iteration.checkpoint;
    }
    await options.onStep?.(outcome);
    const decision = outcome.decision;
    if (decision.kind === "halt") break;
    if (decision.kind === "continue") continue;
    const now = deps.now();
    if (decision.kind === "wait") {
      await deps.sleep(Math.max(0, decision.untilMs - now), signal);
      continue;
    }
    // The driver itself is being stopped: the next step records how it ends.
    if (signal?.aborted) continue;
    if (!ports.controls) {
      // Nobody can answer: only a deadline can move the loop on.
      const deadline = decision.kind === "await_approval" ? decision.deadlineAt : null;
      if (deadline === null) {
        const events: EngineEvent[] = [];
        snapshot = haltLoop(snapshot, "system_error", `${decision.kind} needs a control source`, SYSTEM, now, events);
        new EventLog({ loopId: snapshot.loopId, now: deps.now }, ports.events).append(events);
        break;
      }
      await deps.sleep(Math.max(0, deadline - now), signal);
      continue;
    }
    const poll = snapshot.config.pacing.pollIntervalMs;
    const deadline = decision.kind === "await_approval" ? decision.deadlineAt : null;
    await deps.sleep(deadline === null ? poll : Math.max(0, Math.min(poll, deadline - now)), signal);
  }
  return buildResult(snapshot, records, lastCheckpoint, deps.now());
}

/**
 * The one driver. `step` is one safe point plus at most one iteration: the
 * unit a durable runtime (server/jobs/slice-runner.ts) executes, stores and
 * schedules again, through hooks. `runLoop` is the in-memory driver: a thin
 * loop over the same `step` for tests and scripts.
 */
import type { Checkpoint } from "./checkpoint";
import type { ControlAck, ControlRequest } from "./control-commands";
import { unanswered } from "./controls";
import type { StepDecision } from "./decision";
import type { StopDetector } from "./detectors";
import type { EngineEvent } from "./events";
import { EventLog } from "./events";
import { runIteration } from "./iteration";
import type { IterationRecord } from "./iteration-record";
import type { Deps, EnginePorts } from "./ports";
import { beforeIteration } from "./preflight";
import { buildResult, type LoopResult } from "./report";
import { abortCauseOf, killReason } from "./run-phase";
import { createLoop, type LoopSnapshot } from "./snapshot";
import { haltLoop, SYSTEM } from "./transitions";
import { errorMessage } from "./validators";

export interface StepOutcome {
  snapshot: LoopSnapshot;
  decision: StepDecision;
  events: EngineEvent[];
  /** Every request answered in this step; the driver stores them with its effect. */
  acks: ControlAck[];
  /** Present when the step ran an iteration. */
  iteration: { record: IterationRecord; checkpoint: Checkpoint } | null;
}

export interface StepHooks {
  /**
   * The driver's one way to read operator requests: pending ones, oldest
   * first. Called once at each safe point (before the iteration, and in its
   * Halt phase, minus what this step already answered) and, to catch a kill,
   * every `killPollMs` while the iteration runs. A failure before the
   * iteration fails the step; later ones leave the requests for the next one.
   */
  readControls?: () => Promise<readonly ControlRequest[]>;
  /** How often to look for a kill while the iteration runs (0 or unset: never). */
  killPollMs?: number;
  /**
   * What the kill watch reads instead of `readControls`, when the driver knows
   * more cheaply that nothing is pending (a runtime's heartbeat reports it).
   */
  pollControls?: () => Promise<readonly ControlRequest[]>;
  /** Called once the safe point decided to run, before the agent starts: a runtime marks the iteration in flight. */
  onBeforeRun?: (snapshot: LoopSnapshot, iteration: number) => Promise<void> | void;
  /** Stops the driver: the step cancels the loop (user_interrupted when it carries a kill reason). */
  signal?: AbortSignal;
  /** Replaces the default detector chain. */
  detectors?: StopDetector;
}

/** Cancels a loop outside an iteration (the external AbortSignal fired). */
export function cancelLoop(
  snapshot: LoopSnapshot,
  now: number,
  reason: unknown,
): { snapshot: LoopSnapshot; events: EngineEvent[] } {
  const events: EngineEvent[] = [];
  const cause = abortCauseOf(reason);
  const next =
    cause.kind === "kill"
      ? haltLoop(snapshot, "user_interrupted", cause.reason, cause.by, now, events)
      : haltLoop(snapshot, "cancelled", cause.reason, cause.by ?? SYSTEM, now, events);
  return { snapshot: next, events };
}

/**
 * Aborts the running iteration when a kill request shows up. The request
 * stays pending; the Halt phase answers it, so it is applied exactly once.
 */
async function watchForKill(
  read: () => Promise<readonly ControlRequest[]>,
  intervalMs: number,
  deps: Pick<Deps, "sleep">,
  run: AbortController,
  stop: AbortSignal,
): Promise<void> {
  while (!stop.aborted && !run.signal.aborted) {
    await deps.sleep(intervalMs, stop);
    if (stop.aborted || run.signal.aborted) return;
    try {
      const kill = (await read()).find((r) => r.command.kind === "kill");
      if (kill && !stop.aborted) run.abort(killReason(kill.by, kill.reason ?? "operator kill", kill.id));
    } catch {
      // An outage of the control store must not break the iteration; the Halt phase reads again.
    }
  }
}

export async function step(
  snapshot: LoopSnapshot,
  ports: EnginePorts,
  deps: Deps,
  hooks: StepHooks = {},
): Promise<StepOutcome> {
  const log = new EventLog({ loopId: snapshot.loopId, now: deps.now }, ports.events);
  const { signal, readControls } = hooks;
  if (signal?.aborted && snapshot.halt === null) {
    const cancelled = cancelLoop(snapshot, deps.now(), signal.reason);
    log.append(cancelled.events);
    const decision = haltOf(cancelled.snapshot);
    return { snapshot: cancelled.snapshot, decision, events: log.events, acks: [], iteration: null };
  }
  const pre = beforeIteration(snapshot, readControls ? await readControls() : [], deps);
  log.append(pre.events);
  if (pre.decision.kind !== "run") {
    return { snapshot: pre.snapshot, decision: pre.decision, events: log.events, acks: pre.acks, iteration: null };
  }
  await hooks.onBeforeRun?.(pre.snapshot, pre.snapshot.state.iteration + 1);

  const run = new AbortController();
  const relay = () => run.abort(signal?.reason);
  if (signal?.aborted) relay();
  else signal?.addEventListener("abort", relay, { once: true });
  const stopWatch = new AbortController();
  const killable = readControls && (hooks.killPollMs ?? 0) > 0 && pre.snapshot.config.stop.enableUserInterrupt;
  const watch = killable
    ? watchForKill(hooks.pollControls ?? readControls, hooks.killPollMs!, deps, run, stopWatch.signal)
    : undefined;
  try {
    const result = await runIteration(pre.snapshot, ports, deps, run.signal, {
      detectors: hooks.detectors,
      controls: readControls && (async () => unanswered(await readControls(), pre.acks)),
    });
    return {
      snapshot: result.snapshot,
      decision: result.decision,
      events: [...log.events, ...result.events],
      acks: [...pre.acks, ...result.acks],
      iteration: { record: result.record, checkpoint: result.checkpoint },
    };
  } finally {
    // A reason of our own: without one, abort() builds a DOMException and its stack on every iteration.
    stopWatch.abort("step finished");
    await watch;
    signal?.removeEventListener("abort", relay);
  }
}

function haltOf(snapshot: LoopSnapshot): StepDecision {
  return { kind: "halt", stopType: snapshot.halt!.stopType, reason: snapshot.halt!.reason };
}

/** Where the in-memory driver reads requests and records what became of them. */
export interface ControlQueue {
  /** Pending requests, oldest first. */
  read(): Promise<readonly ControlRequest[]>;
  /** Called after every step with the requests it answered. */
  settle(acks: readonly ControlAck[]): void | Promise<void>;
}

export interface RunLoopOptions {
  ports: EnginePorts;
  deps: Deps;
  /** Start a new loop from goal + config ... */
  goal?: string;
  config?: unknown;
  /** ... or continue an existing one (e.g. restored from a checkpoint). */
  snapshot?: LoopSnapshot;
  signal?: AbortSignal;
  /** Operator requests; without them a pause or a gate without deadline cannot move on. */
  controls?: ControlQueue;
  detectors?: StopDetector;
  /** Called after every step, e.g. to persist it. */
  onStep?: (outcome: StepOutcome) => void | Promise<void>;
}

/** Runs until halt: honours waits through deps.sleep, approvals and pauses by polling controls. */
export async function runLoop(options: RunLoopOptions): Promise<LoopResult> {
  const { ports, deps, signal, controls } = options;
  // The in-memory queue is the caller's: an outage there is survived, the requests wait.
  const readControls = controls
    ? async () => {
        try {
          return await controls.read();
        } catch {
          return [];
        }
      }
    : undefined;
  let snapshot = options.snapshot ?? createLoop(options.goal ?? "", options.config ?? {}, deps);
  const records: IterationRecord[] = [];
  let lastCheckpoint: Checkpoint | null = null;
  for (;;) {
    let outcome: StepOutcome;
    try {
      outcome = await step(snapshot, ports, deps, {
        readControls,
        killPollMs: snapshot.config.pacing.pollIntervalMs,
        signal,
        detectors: options.detectors,
      });
    } catch (error) {
      // A bug or a broken port outside the guarded phases: stop, and say why.
      const events: EngineEvent[] = [];
      snapshot = haltLoop(snapshot, "system_error", errorMessage(error), SYSTEM, deps.now(), events);
      new EventLog({ loopId: snapshot.loopId, now: deps.now }, ports.events).append(events);
      break;
    }
    snapshot = outcome.snapshot;
    if (controls && outcome.acks.length > 0) {
      try {
        await controls.settle(outcome.acks);
      } catch {
        // The caller's queue failed to record them; nothing here can do better.
      }
    }
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
    if (!controls) {
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

// One job invocation ("slice"): claim a loop, run iterations from its latest
// checkpoint until it waits, pauses, halts or the slice budget runs out, and
// store every safe point. Route handlers, the worker and tests all call this.
import { randomUUID } from "node:crypto";
import {
  beforeIteration,
  buildCheckpoint,
  restoreFromCheckpoint,
  runIteration,
  type ControlAck,
  type ControlSource,
  type EnginePorts,
  type LoopSnapshot,
  type PreflightDecision,
  type StepDecision,
} from "../engine";
import { pendingControlRequests } from "../db/controls.repo";
import { claimLoop, LeaseLostError } from "../db/loop-lease.repo";
import { commitStep, currentCheckpoint, failLoop, markInflight, recordCrashedAttempt } from "../db/loop-steps.repo";
import { LeaseKeeper } from "./lease-keeper";
import type { JobRuntime } from "./runtime-deps";
import { checkpointRow, decidedApprovals, engineControlRequest, eventRows, iterationRow, loopPatch, nextRunAtFor, openApproval } from "./step-mapping";

export interface SliceResult {
  claimed: boolean;
  iterations: number;
  /** Why the slice ended. */
  outcome: "not_claimable" | "halted" | "waiting" | "awaiting_approval" | "paused" | "budget" | "lease_lost";
}

/** The loop itself cannot run: its checkpoint or its configuration is unusable. */
class LoopSetupError extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.name = "LoopSetupError";
  }
}

function controlSource(rt: JobRuntime): ControlSource {
  return {
    poll: async (loopId) => (await pendingControlRequests(rt.db.prisma, loopId)).map(engineControlRequest),
    // Acknowledgements are stored with the step that applied them, never ahead of it.
    ack: async () => undefined,
  };
}

async function loadSnapshot(rt: JobRuntime, loopId: string): Promise<LoopSnapshot> {
  const row = await currentCheckpoint(rt.db.prisma, loopId);
  if (!row) throw new Error(`loop ${loopId} has no checkpoint to resume from`);
  return restoreFromCheckpoint(JSON.parse(row.state), row.sha256);
}

const OUTCOME: Record<Exclude<StepDecision["kind"] | PreflightDecision["kind"], "continue" | "run">, SliceResult["outcome"]> = {
  halt: "halted",
  wait: "waiting",
  await_approval: "awaiting_approval",
  pause: "paused",
};

/**
 * Runs one slice of a loop. `claimedAs` is the lease owner when the caller
 * already claimed the loop (a worker claiming in batches); otherwise the
 * slice claims it and returns at once if another runtime holds it.
 */
export async function runSlice(rt: JobRuntime, loopId: string, claimedAs?: string): Promise<SliceResult> {
  const owner = claimedAs ?? `${rt.instanceId}:${randomUUID()}`;
  const now = () => new Date(rt.engine.now());
  const claimed = claimedAs
    ? await rt.db.prisma.loop.findFirst({ where: { id: loopId, leaseOwner: claimedAs } })
    : await claimLoop(rt.db.prisma, loopId, owner, now(), rt.settings.leaseMs);
  if (!claimed) return { claimed: false, iterations: 0, outcome: "not_claimable" };

  const keeper = new LeaseKeeper(rt, loopId, owner);
  keeper.start();
  const started = rt.engine.now();
  let iterations = 0;
  try {
    const crashed = await recordCrashedAttempt(rt.db.prisma, loopId, owner, now(), randomUUID());
    // What the loop row says is in flight (its number and attempt), kept here to save a read per iteration.
    let marked: { number: number; attempt: number } | null = crashed ? { number: crashed.number, attempt: crashed.attempt + 1 } : null;
    let snapshot: LoopSnapshot;
    let ports: EnginePorts;
    try {
      snapshot = await loadSnapshot(rt, loopId);
      ports = {
        ...(await rt.ports({ id: claimed.id, goal: claimed.goal, agentKind: claimed.agentKind, config: claimed.config })),
        controls: controlSource(rt),
      };
    } catch (error) {
      throw new LoopSetupError(error);
    }

    for (;;) {
      const controls = await ports.controls!.poll(loopId);
      const pre = beforeIteration(snapshot, controls, rt.engine);
      if (pre.decision.kind !== "run") {
        const decision = pre.decision;
        if (decision.kind === "wait" && decision.untilMs - rt.engine.now() <= rt.settings.inlineWaitMs) {
          await rt.engine.sleep(Math.max(0, decision.untilMs - rt.engine.now()));
          continue;
        }
        const checkpoint = buildCheckpoint(pre.snapshot, rt.engine);
        await commitStep(rt.db.prisma, {
          loopId,
          owner,
          loop: loopPatch(pre.snapshot, decision, now()),
          checkpoint: checkpointRow(checkpoint),
          events: eventRows(pre.events),
          acks: pre.acks,
          release: true,
          openApproval: openApproval(pre.snapshot, decision),
          decidedApprovals: decidedApprovals(pre.events),
        });
        rt.onEventsWritten?.();
        const at = nextRunAtFor(decision);
        if (at) rt.dispatcher.dispatchAt(loopId, at);
        return { claimed: true, iterations, outcome: OUTCOME[decision.kind] };
      }

      const number = pre.snapshot.state.iteration + 1;
      if (marked?.number !== number) marked = { number, attempt: await markInflight(rt.db.prisma, loopId, owner, number, now()) };
      const signal = keeper.iterationSignal();
      const result = await runIteration(pre.snapshot, ports, rt.engine, signal);
      keeper.endIteration();
      if (keeper.lost) throw new LeaseLostError(loopId);
      iterations++;

      const acks: ControlAck[] = [...pre.acks, ...result.acks];
      if (keeper.killRequestId && !acks.some((a) => a.requestId === keeper.killRequestId)) {
        acks.push({ requestId: keeper.killRequestId, outcome: "applied", note: "kill applied: the running agent was aborted", at: rt.engine.now() });
      }
      const overBudget = rt.engine.now() - started >= rt.settings.sliceBudgetMs;
      const handBack = result.decision.kind !== "continue" || overBudget;
      const patch = loopPatch(result.snapshot, result.decision, now());
      await commitStep(rt.db.prisma, {
        loopId,
        owner,
        loop: result.decision.kind === "continue" && overBudget ? { ...patch, status: "queued" } : patch,
        iteration: { row: iterationRow(result.record), attempt: marked.attempt },
        nextInflight: handBack ? null : { number: number + 1, at: now() },
        checkpoint: checkpointRow(result.checkpoint),
        events: eventRows([...pre.events, ...result.events]),
        acks,
        release: handBack,
        openApproval: openApproval(result.snapshot, result.decision),
        decidedApprovals: decidedApprovals([...pre.events, ...result.events]),
      });
      rt.onEventsWritten?.();
      snapshot = result.snapshot;
      marked = handBack ? null : { number: number + 1, attempt: 1 };

      if (result.decision.kind !== "continue") {
        const d = result.decision;
        const at = nextRunAtFor(d);
        if (at) rt.dispatcher.dispatchAt(loopId, at);
        return { claimed: true, iterations, outcome: OUTCOME[d.kind] };
      }
      if (overBudget) {
        rt.dispatcher.dispatch(loopId);
        return { claimed: true, iterations, outcome: "budget" };
      }
    }
  } catch (error) {
    if (error instanceof LeaseLostError) return { claimed: true, iterations, outcome: "lease_lost" };
    // A passing fault (database busy, connection reset): the lease expires and
    // the sweeper retries the loop from its checkpoint.
    if (!(error instanceof LoopSetupError)) throw error;
    // Not a crash of this process but a loop we cannot run: stop it visibly
    // instead of retrying it forever.
    const reason = `cannot run this loop: ${error.message}`;
    await failLoop(rt.db.prisma, loopId, owner, reason, now()).catch(() => undefined);
    rt.onEventsWritten?.();
    return { claimed: true, iterations, outcome: "halted" };
  } finally {
    keeper.stop();
  }
}

// One job invocation ("slice"): claim a loop, drive it with the engine's own
// `step` from its latest checkpoint until it waits, pauses, halts or the slice
// budget runs out, and store every safe point in one fenced transaction.
// Route handlers, the worker and tests all call this.
import { randomUUID } from "node:crypto";
import {
  buildCheckpoint,
  step,
  type ControlAck,
  type ControlRequest,
  type EnginePorts,
  type EventSink,
  type LoopSnapshot,
  type StepDecision,
  type PreflightDecision,
} from "../engine";
import { readPendingControls } from "../db/pending-controls";
import { claimLoop, fenceLaunch, LeaseLostError, loadClaimedLoop } from "../db/loop-lease.repo";
import {
  checkpointById,
  commitStep,
  failLoop,
  markInflight,
  recordCrashedAttempt,
  type PendingControl,
} from "../db/loop-steps.repo";
import { isStorageConflict, isTransientStorageError } from "../db/storage-errors";
import { reapAgentGroup } from "../agents/orphans";
import { sweepOrphanBridges } from "../agents/sandbox/bridge-sweep";
import { readStoredCheckpoint } from "../loops/loop-snapshot";
import {
  checkpointRow,
  decidedApprovals,
  engineControlRequest,
  eventRows,
  iterationRow,
  iterationSummary,
  outputRowFor,
  loopPatch,
  nextRunAtFor,
  openApproval,
  tamperEventRows,
  withIterationSummary,
} from "../loops/step-rows";
import { createAgentTracker } from "./agent-tracker";
import { withCrashedSpend } from "./crashed-spend";
import { leaseKeeperOf, type LeaseHold } from "./lease-keeper";
import { SharedLimits } from "./shared-limits";
import { LiveRecorder } from "./live-recorder";
import type { JobRuntime } from "./runtime-deps";
import { settleRaceAfterEnd } from "../loops/race-settle.service";

export interface SliceResult {
  claimed: boolean;
  iterations: number;
  /** Why the slice ended. */
  outcome:
    | "not_claimable"
    | "halted"
    | "waiting"
    | "awaiting_approval"
    | "needs_attention"
    | "paused"
    | "budget"
    | "lease_lost";
}

/** The loop itself cannot run: its checkpoint or its configuration is unusable. */
class LoopSetupError extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.name = "LoopSetupError";
  }
}

/**
 * A step the database refuses for good (invalid data, not an outage or a
 * conflict) would be re-run and refused forever: it becomes a setup error,
 * which fails the loop with the database's reason.
 */
async function commitStepOrExplain<T>(commit: () => Promise<T>): Promise<T> {
  try {
    return await commit();
  } catch (error) {
    if (error instanceof LeaseLostError || isTransientStorageError(error) || isStorageConflict(error)) throw error;
    throw new LoopSetupError(
      new Error(`the database refused this step: ${error instanceof Error ? error.message : String(error)}`),
    );
  }
}

const OUTCOME: Record<
  Exclude<StepDecision["kind"] | PreflightDecision["kind"], "continue" | "run">,
  SliceResult["outcome"]
> = {
  halt: "halted",
  wait: "waiting",
  await_approval: "awaiting_approval",
  await_answer: "needs_attention",
  pause: "paused",
};

/**
 * The runtime's one way to read operator requests (the engine's readControls
 * hook). It remembers who sent each request, so stored events keep the user
 * id, and answers requests the engine cannot read as rejected.
 */
class ControlReader {
  readonly actorIds = new Map<string, string | null>();
  private unreadable: PendingControl[] = [];
  /** What the last step commit read in its transaction: the next read takes it instead of the database. */
  private primed: PendingControl[] | undefined;

  constructor(
    private readonly rt: JobRuntime,
    private readonly loopId: string,
  ) {}

  /**
   * The kill watch's read while the iteration runs: a real read only when the
   * lease keeper's last heartbeat saw requests pending for this loop (or could
   * not tell), so an idle slice costs the database nothing between safe points.
   */
  poll = (hold: LeaseHold) => async (): Promise<ControlRequest[]> => (hold.controlsPending ? this.read() : []);

  /**
   * The pending requests a step commit returned. A request stored after that commit is not among them;
   * it is no later for it: the iteration's Halt phase reads the database, as for one stored during it.
   */
  prime(rows: PendingControl[] | undefined) {
    this.primed = rows;
  }

  read = async (): Promise<ControlRequest[]> => {
    const primed = this.primed;
    this.primed = undefined;
    const rows = primed ?? (await readPendingControls(this.rt.db.prisma, this.loopId));
    const requests: ControlRequest[] = [];
    for (const row of rows) {
      this.actorIds.set(row.actor, row.actorId);
      const request = engineControlRequest(row);
      if (request) requests.push(request);
      else if (!this.unreadable.some((u) => u.id === row.id)) this.unreadable.push(row);
    }
    return requests;
  };

  /** Rejections for stored requests of an unknown kind or payload, with their audit events. */
  takeUnreadable(at: number) {
    const rows = this.unreadable.splice(0);
    const note = "not a control this release understands";
    return {
      acks: rows.map((r): ControlAck => ({ requestId: r.id, outcome: "rejected", note, at })),
      events: rows.map((r) => ({
        loopId: this.loopId,
        type: "control_rejected",
        actor: r.actor,
        actorId: r.actorId,
        reason: note,
        payload: { requestId: r.id, command: r.kind },
      })),
    };
  }
}

/**
 * Runs one slice of a loop. `claimedAs` is the lease owner when the caller
 * already claimed the loop (a worker claiming in batches); otherwise the
 * slice claims it and returns at once if another runtime holds it.
 */
export async function runSlice(rt: JobRuntime, loopId: string, claimedAs?: string): Promise<SliceResult> {
  const owner = claimedAs ?? `${rt.instanceId}:${randomUUID()}`;
  const db = rt.db.prisma;
  const now = () => new Date(rt.engine.now());
  const claimAt = now();
  const claimed = claimedAs
    ? await loadClaimedLoop(db, loopId, claimedAs)
    : await claimLoop(db, loopId, owner, claimAt, rt.settings.leaseMs);
  if (!claimed) return { claimed: false, iterations: 0, outcome: "not_claimable" };

  const keeper = leaseKeeperOf(rt).hold(loopId, owner);
  // The lease runs from the claim's time, not from now (a worker's batch claim is a moment earlier still;
  // the launch fence checks the lease in the database whatever this says).
  if (!claimedAs) keeper.renewedAt = claimAt.getTime();
  let live: LiveRecorder | undefined;
  const started = rt.engine.now();
  let iterations = 0;
  try {
    // The claim read the row under the lease: with nothing in flight there is no crashed attempt to record.
    const crashed =
      claimed.inflightIteration === null ? null : await recordCrashedAttempt(db, loopId, owner, now(), randomUUID());
    // Whatever the crashed runtime's agent left running goes before the iteration runs again.
    if (crashed?.group) await reapAgentGroup(crashed.group);
    // And the sandbox's network bridges of a runtime that died with it.
    if (crashed) sweepOrphanBridges();
    // What the loop row says is in flight (its number and attempt), kept here to save a read per iteration.
    let marked: { number: number; attempt: number } | null = crashed
      ? { number: crashed.number, attempt: crashed.attempt + 1 }
      : null;
    let snapshot: LoopSnapshot;
    let ports: EnginePorts;
    // What the next checkpoint may cite rather than store: the row holding the
    // last output, and the parts the loop has (updated only once a commit stood).
    let outputRow: string | null = null;
    let storedParts = new Set<string>();
    // Reading is a passing fault when it fails; what was read being unusable is not.
    // The claimed row's pointer is current: every other writer is fenced out by the lease.
    const stored = claimed.checkpointId ? await checkpointById(db, claimed.checkpointId) : null;
    try {
      if (!stored) throw new Error(`loop ${loopId} has no checkpoint to resume from`);
      const restored = await readStoredCheckpoint(db, stored, { sha256: rt.engine.sha256, codec: rt.codec });
      ({ snapshot, outputRow, parts: storedParts } = restored);
      if (crashed) {
        const where = { iteration: crashed.number, attempt: crashed.attempt, agentId: "crashed", at: rt.engine.now() };
        snapshot = withCrashedSpend(snapshot, crashed.uncountedSpend, where);
      }
      ports = await rt.ports({
        id: claimed.id,
        goal: claimed.goal,
        agentKind: claimed.agentKind,
        config: claimed.config,
        tracker: createAgentTracker(db, loopId, owner),
      });
    } catch (error) {
      // Building the ports may read the database (secrets, settings): an outage
      // there is a passing fault, not an unusable loop.
      if (isTransientStorageError(error)) throw error;
      throw new LoopSetupError(error);
    }
    const controls = new ControlReader(rt, loopId);
    const limits = new SharedLimits(db, loopId, claimed.config, ports.fallbackAgent !== undefined);
    live = new LiveRecorder({
      db,
      loopId,
      owner,
      now: rt.engine.now,
      actorIds: controls.actorIds,
      onWritten: rt.onEventsWritten,
    });
    ports = { ...ports, events: chainSinks(ports.events, live) };

    for (;;) {
      snapshot = await limits.beforeStep(snapshot, rt.engine.now());
      const outcome = await step(snapshot, ports, rt.engine, {
        readControls: controls.read,
        pollControls: controls.poll(keeper),
        killPollMs: rt.settings.heartbeatMs,
        signal: keeper.signal,
        onBeforeRun: async (_snapshot, number) => {
          if (marked?.number !== number)
            marked = { number, attempt: await markInflight(db, loopId, owner, number, now()) };
          // The launch fence (issue 32): this attempt, this claim, a lease not yet expired, in one
          // statement that also renews it; a runtime that fell behind its lease never launches.
          const sentAt = rt.engine.now();
          if (keeper.lost || !(await fenceLaunch(db, loopId, owner, marked, new Date(sentAt), rt.settings.leaseMs))) {
            keeper.markLost();
            throw new LeaseLostError(loopId);
          }
          keeper.renewed(sentAt);
        },
      });
      if (keeper.lost) throw new LeaseLostError(loopId);
      const { decision, iteration } = outcome;
      // A short wait before any work: sleep through it and look again. Nothing
      // was stored, so what the safe point applied is simply applied again.
      if (!iteration && decision.kind === "wait" && decision.untilMs - rt.engine.now() <= rt.settings.inlineWaitMs) {
        await rt.engine.sleep(Math.max(0, decision.untilMs - rt.engine.now()));
        continue;
      }
      if (iteration) iterations++;
      const overBudget = rt.engine.now() - started >= rt.settings.sliceBudgetMs;
      const handBack = decision.kind !== "continue" || overBudget;
      const patch = loopPatch(outcome.snapshot, decision, now());
      const unreadable = controls.takeUnreadable(rt.engine.now());
      await live.settle();
      const toStore = outcome.events.filter((e) => !live!.committed.has(e));
      const cite = iteration ? outputRowFor(iteration.record, outcome.snapshot) : outputRow;
      const checkpoint = checkpointRow(iteration?.checkpoint ?? buildCheckpoint(outcome.snapshot, rt.engine), {
        sha256: rt.engine.sha256,
        outputRow: cite,
        stored: storedParts,
      });
      const row = iteration ? iterationRow(iteration.record) : undefined;
      const summary =
        iteration && row
          ? iterationSummary(loopId, patch, { record: iteration.record, row, attempt: marked!.attempt })
          : undefined;
      const { released, pendingControls } = await commitStepOrExplain(() =>
        commitStep(db, {
          loopId,
          fence: { owner },
          loop: decision.kind === "continue" && overBudget ? { ...patch, status: "queued" } : patch,
          ended: outcome.snapshot.halt !== null,
          iteration: row ? { row, attempt: marked!.attempt } : undefined,
          nextInflight: iteration && !handBack ? { number: iteration.record.number + 1, at: now() } : null,
          checkpoint: checkpoint.row,
          events: [
            ...withIterationSummary(eventRows([...limits.takeEvents(), ...toStore], controls.actorIds), summary),
            ...tamperEventRows(loopId, iteration?.record),
            ...unreadable.events,
          ],
          acks: [...outcome.acks, ...unreadable.acks],
          release: handBack,
          openApproval: openApproval(outcome.snapshot, decision),
          decidedApprovals: decidedApprovals(outcome.events, controls.actorIds),
        }),
      );
      controls.prime(pendingControls);
      rt.onEventsWritten?.();
      outputRow = cite;
      for (const hash of checkpoint.cites) storedParts.add(hash);
      await limits.afterStep(outcome, rt.engine.now());
      if (iteration) await live.clear();
      snapshot = outcome.snapshot;
      if (iteration) marked = handBack ? null : { number: iteration.record.number + 1, attempt: 1 };
      // Requests arrived after this safe point read them: apply them before letting the loop go.
      if (handBack && !released) continue;

      if (decision.kind !== "continue") {
        const at = nextRunAtFor(decision);
        if (at) rt.dispatcher.dispatchAt(loopId, at);
        // A race contender that ended may decide its race (after the commit: the loop is released).
        if (outcome.snapshot.halt !== null) {
          await settleRaceAfterEnd({ db: rt.db, dispatcher: rt.dispatcher, engine: rt.engine }, loopId);
        }
        return { claimed: true, iterations, outcome: OUTCOME[decision.kind] };
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
    await failLoop(db, loopId, owner, reason, now()).catch(() => undefined);
    rt.onEventsWritten?.();
    return { claimed: true, iterations, outcome: "halted" };
  } finally {
    live?.stop();
    keeper.release();
  }
}

/** The live recorder listens beside whatever sink the ports already had. */
function chainSinks(first: EventSink | undefined, second: EventSink): EventSink {
  if (!first) return second;
  return {
    emit(event) {
      second.emit(event);
      return first.emit(event);
    },
  };
}

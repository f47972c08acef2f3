// One slice's state between its claim and its release, and the three things
// it does: restore the loop from its checkpoint, step it with the engine, and
// commit each safe point through the loop store. runSlice (slice-runner.ts)
// strings them together.
import { randomUUID } from "node:crypto";
import { resolve } from "node:path";
import {
  buildCheckpoint,
  step,
  type EnginePorts,
  type EventSink,
  type LoopSnapshot,
  type PreflightDecision,
  type StepDecision,
  type StepOutcome,
} from "../engine";
import type { ClaimedLoop, LoopStore } from "../db/loop-store/loop-store.port";
import { LeaseLostError } from "../db/loop-lease.repo";
import { isStorageConflict, isTransientStorageError } from "../db/storage-errors";
import { reapAgentGroup } from "../agents/orphans";
import { forgetSpool } from "../agents/spawn-helper";
import { spoolFile } from "../agents/spend-spool";
import { getEnv } from "../env";
import { sweepOrphanBridges } from "../agents/sandbox/bridge-sweep";
import { readStoredCheckpoint } from "../loops/loop-snapshot";
import { settleRaceAfterEnd } from "../loops/race-settle.service";
import {
  checkpointRow,
  decidedApprovals,
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
import { createAgentTracker, type RuntimeAgentTracker } from "./agent-tracker";
import { ControlReader } from "./control-reader";
import { withCrashedSpend } from "./crashed-spend";
import type { LeaseHold } from "./lease-keeper";
import { storeStrandedSpend } from "./spend-reports";
import { recoverSpooledSpend } from "./spool-recovery";
import { SharedLimits } from "./shared-limits";
import { LiveRecorder } from "./live-recorder";
import type { JobRuntime } from "./runtime-deps";
import { permissionGate } from "../loops/permission-prompts.service";

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
export class LoopSetupError extends Error {
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

export class SliceRun {
  private readonly store: LoopStore;
  private readonly loopId: string;
  private readonly started: number;
  private readonly controls: ControlReader;
  private iterations = 0;
  private snapshot!: LoopSnapshot;
  private ports!: EnginePorts;
  private limits!: SharedLimits;
  private live: LiveRecorder | undefined;
  /**
   * What the loop row says is in flight (its number and attempt), kept here to save a read per iteration,
   * and when it launched: after a lost lease, what its agent reported is stored for the next owner.
   */
  private marked: { number: number; attempt: number; at?: Date } | null = null;
  private tracker: RuntimeAgentTracker | undefined;
  // What the next checkpoint may cite rather than store: the row holding the
  // last output, and the parts the loop has (updated only once a commit stood).
  private outputRow: string | null = null;
  private storedParts = new Set<string>();
  // Absolute: the spawn helper writes there after this process is gone.
  private readonly dataDir = resolve(getEnv().RALPH_DATA_DIR);

  constructor(
    private readonly rt: JobRuntime,
    private readonly claimed: ClaimedLoop,
    private readonly owner: string,
    private readonly keeper: LeaseHold,
  ) {
    this.store = rt.db.loopStore;
    this.loopId = claimed.id;
    this.started = rt.engine.now();
    this.controls = new ControlReader(this.store, this.loopId);
  }

  private now = () => new Date(this.rt.engine.now());

  result(outcome: SliceResult["outcome"]): SliceResult {
    return { claimed: true, iterations: this.iterations, outcome };
  }

  /** Records a crashed attempt, if one was in flight, and restores the loop's checkpoint and ports. */
  async restore(): Promise<void> {
    const { rt, store, loopId, owner, claimed } = this;
    // The claim read the row under the lease: with nothing in flight there is no crashed attempt to record.
    const inflight = claimed.inflightIteration !== null;
    // What the crashed runtime's agents printed and it never stored, if its spawn helper spooled it
    // (spool-recovery.ts): on the rows first, so the crash's record below sums it and settles its report.
    // A spool written later is found by the periodic sweep.
    if (inflight) await recoverSpooledSpend(rt.db.prisma, this.now(), { loopId, dataDir: this.dataDir });
    const crashed = inflight ? await store.recordCrashedAttempt(loopId, owner, this.now(), randomUUID()) : null;
    // Whatever the crashed runtime's agent left running goes before the iteration runs again.
    if (crashed?.group) await reapAgentGroup(crashed.group);
    // And the sandbox's network bridges of a runtime that died with it.
    if (crashed) sweepOrphanBridges();
    this.marked = crashed ? { number: crashed.number, attempt: crashed.attempt + 1 } : null;
    let ports: EnginePorts;
    // Reading is a passing fault when it fails; what was read being unusable is not.
    // The claimed row's pointer is current: every other writer is fenced out by the lease.
    const stored = claimed.checkpointId ? await store.checkpointById(claimed.checkpointId) : null;
    try {
      if (!stored) throw new Error(`loop ${loopId} has no checkpoint to resume from`);
      const restored = await readStoredCheckpoint(store, stored, { sha256: rt.engine.sha256, codec: rt.codec });
      ({ snapshot: this.snapshot, outputRow: this.outputRow, parts: this.storedParts } = restored);
      if (crashed) {
        const where = { iteration: crashed.number, attempt: crashed.attempt, agentId: "crashed", at: rt.engine.now() };
        this.snapshot = withCrashedSpend(this.snapshot, crashed.uncountedSpend, where);
      }
      ports = await rt.ports({
        id: claimed.id,
        goal: claimed.goal,
        agentKind: claimed.agentKind,
        config: claimed.config,
        tracker: (this.tracker = createAgentTracker(rt.db.prisma, loopId, owner, undefined, (number) =>
          this.marked?.number === number ? spoolFile(this.dataDir, loopId, number, this.marked.attempt) : undefined,
        )),
        permissions: permissionGate({ db: rt.db, engine: rt.engine }),
      });
    } catch (error) {
      // Building the ports may read the database (secrets, settings): an outage
      // there is a passing fault, not an unusable loop.
      if (isTransientStorageError(error)) throw error;
      throw new LoopSetupError(error);
    }
    const db = rt.db.prisma;
    this.limits = new SharedLimits(db, loopId, claimed.config, ports.fallbackAgent !== undefined);
    this.live = new LiveRecorder({
      db,
      loopId,
      owner,
      now: rt.engine.now,
      actorIds: this.controls.actorIds,
      onWritten: rt.onEventsWritten,
    });
    this.ports = { ...ports, events: chainSinks(ports.events, this.live) };
  }

  /** One engine step; null when a short wait before any work was slept through (nothing to store). */
  async step(): Promise<StepOutcome | null> {
    const { rt, store, loopId, owner, keeper } = this;
    this.snapshot = this.controls.spendReports.fold(this.snapshot, rt.engine.now());
    this.snapshot = await this.limits.beforeStep(this.snapshot, rt.engine.now());
    const outcome = await step(this.snapshot, this.ports, rt.engine, {
      readControls: this.controls.read,
      pollControls: this.controls.poll(keeper),
      killPollMs: rt.settings.heartbeatMs,
      signal: keeper.signal,
      onBeforeRun: async (_snapshot, number) => {
        if (this.marked?.number !== number)
          this.marked = { number, attempt: await store.markInflight(loopId, owner, number, this.now()) };
        // The launch fence (issue 32): this attempt, this claim, a lease not yet expired, in one
        // statement that also renews it; a runtime that fell behind its lease never launches.
        const sentAt = rt.engine.now();
        if (
          keeper.lost ||
          !(await store.fenceLaunch(loopId, owner, this.marked, new Date(sentAt), rt.settings.leaseMs))
        ) {
          keeper.markLost();
          throw new LeaseLostError(loopId);
        }
        keeper.renewed(sentAt);
        this.marked.at = new Date(sentAt);
      },
    });
    if (keeper.lost) throw new LeaseLostError(loopId);
    const { decision, iteration } = outcome;
    // A short wait before any work: sleep through it and look again. Nothing
    // was stored, so what the safe point applied is simply applied again.
    if (!iteration && decision.kind === "wait" && decision.untilMs - rt.engine.now() <= rt.settings.inlineWaitMs) {
      await rt.engine.sleep(Math.max(0, decision.untilMs - rt.engine.now()));
      return null;
    }
    return outcome;
  }

  /**
   * Stores the step's safe point in one fenced transaction. Returns how the
   * slice ends when it hands the loop back, or null to step again.
   */
  async commit(outcome: StepOutcome): Promise<SliceResult | null> {
    const { rt, store, loopId, owner, controls, live } = this;
    const { decision, iteration } = outcome;
    if (iteration) this.iterations++;
    const overBudget = rt.engine.now() - this.started >= rt.settings.sliceBudgetMs;
    const handBack = decision.kind !== "continue" || overBudget;
    const patch = loopPatch(outcome.snapshot, decision, this.now());
    const unreadable = controls.takeUnreadable(rt.engine.now());
    await live!.settle();
    const toStore = outcome.events.filter((e) => !live!.committed.has(e));
    const cite = iteration ? outputRowFor(iteration.record, outcome.snapshot) : this.outputRow;
    const checkpoint = checkpointRow(iteration?.checkpoint ?? buildCheckpoint(outcome.snapshot, rt.engine), {
      sha256: rt.engine.sha256,
      outputRow: cite,
      stored: this.storedParts,
    });
    const row = iteration ? iterationRow(iteration.record) : undefined;
    const attempt = this.marked?.attempt;
    const summary =
      iteration && row
        ? iterationSummary(loopId, patch, { record: iteration.record, row, attempt: attempt! })
        : undefined;
    const { released, pendingControls } = await commitStepOrExplain(() =>
      store.commitStep({
        loopId,
        fence: { owner },
        loop: decision.kind === "continue" && overBudget ? { ...patch, status: "queued" } : patch,
        ended: outcome.snapshot.halt !== null,
        iteration: row ? { row, attempt: attempt! } : undefined,
        nextInflight: iteration && !handBack ? { number: iteration.record.number + 1, at: this.now() } : null,
        checkpoint: checkpoint.row,
        events: [
          ...withIterationSummary(eventRows([...this.limits.takeEvents(), ...toStore], controls.actorIds), summary),
          ...tamperEventRows(loopId, iteration?.record),
          ...unreadable.events,
        ],
        acks: [...outcome.acks, ...unreadable.acks, ...controls.spendReports.acks(rt.engine.now())],
        release: handBack,
        openApproval: openApproval(outcome.snapshot, decision),
        decidedApprovals: decidedApprovals(outcome.events, controls.actorIds),
      }),
    );
    controls.spendReports.committed();
    // The attempt is stored: the spawn helper need not keep its agent's output for a next owner.
    if (iteration && attempt !== undefined)
      forgetSpool(spoolFile(this.dataDir, loopId, iteration.record.number, attempt));
    controls.prime(pendingControls);
    rt.onEventsWritten?.();
    this.outputRow = cite;
    for (const hash of checkpoint.cites) this.storedParts.add(hash);
    await this.limits.afterStep(outcome, rt.engine.now());
    if (iteration) await live!.clear();
    this.snapshot = outcome.snapshot;
    if (iteration) this.marked = handBack ? null : { number: iteration.record.number + 1, attempt: 1 };
    // Requests arrived after this safe point read them: apply them before letting the loop go.
    if (handBack && !released) return null;

    if (decision.kind !== "continue") {
      const at = nextRunAtFor(decision);
      if (at) rt.dispatcher.dispatchAt(loopId, at);
      // A race contender that ended may decide its race (after the commit: the loop is released).
      if (outcome.snapshot.halt !== null) {
        await settleRaceAfterEnd({ db: rt.db, dispatcher: rt.dispatcher, engine: rt.engine }, loopId);
      }
      return this.result(OUTCOME[decision.kind]);
    }
    if (overBudget) {
      rt.dispatcher.dispatch(loopId);
      return this.result("budget");
    }
    return null;
  }

  /** The lease is lost: what the agent in flight reported is stored for the loop's next owner (stranded-spend.repo.ts). */
  async leaseLost(): Promise<SliceResult> {
    const marked = this.marked;
    if (marked?.at)
      await storeStrandedSpend(this.rt.db.prisma, this.loopId, this.tracker, { ...marked, at: marked.at }, this.now());
    return this.result("lease_lost");
  }

  /** Not a crash of this process but a loop we cannot run: stop it visibly instead of retrying it forever. */
  async fail(error: LoopSetupError): Promise<SliceResult> {
    const reason = `cannot run this loop: ${error.message}`;
    await this.store.fail(this.loopId, this.owner, reason, this.now()).catch(() => undefined);
    this.rt.onEventsWritten?.();
    return this.result("halted");
  }

  /** Stops the live recorder and drops the lease hold (the last commit gave the lease back, or it expires). */
  release() {
    this.live?.stop();
    this.keeper.release();
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

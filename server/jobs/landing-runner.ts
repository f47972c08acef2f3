// Landing as a durable job (docs/merge-queue.md). A lander takes a queue's
// lease (one compare-and-set: one lander per target branch, whatever the
// number of workers), renews it while it works, and lands the queue's entries
// one at a time: reset its private landing worktree to the target's current
// head, rebase (or merge) the loop's branch onto it, re-run the loop's
// evidence on the result, and only then move the target by one git
// compare-and-swap. A lander killed at any point leaves the target where it
// was (the ref moves only in that last step); the next lander rolls the entry
// back (its worktree reset) and starts it again, or finds the CAS went through
// and records the landing. A clean checkout of the target (the user's) is
// brought forward right after the CAS, refused before it when it is dirty
// (landing-git.ts). Every entry write is fenced by the queue's lease.
import { randomUUID } from "node:crypto";
import { resolve } from "node:path";
import type { AgentDeps } from "../agents/deps";
import { shortLoopId } from "../agents/git/git-workspace";
import {
  branchRef,
  compareAndSwapBranch,
  forwardCheckouts,
  integrate,
  isAncestor,
  refSha,
  resetLandingWorktree,
  targetCheckoutProblem,
} from "../agents/git/landing-git";
import type { Database } from "../db/client";
import {
  claimQueue,
  dueQueues,
  LandingLeaseLostError,
  loopForLanding,
  openEntries,
  queueById,
  releaseQueue,
  renewQueueLease,
  updateEntryFenced,
  type LandingEntryRow,
  type LandingQueueRow,
} from "../db/landing.repo";
import type { NewLoopEvent } from "../db/events.repo";
import type { JsonInput } from "../db/tx";
import { getEnv } from "../env";
import { notifyEventsWritten } from "../events/event-wakeups";
import { LandingCheckTimeoutError, rerunLoopEvidence, type EvidenceRun } from "../loops/landing-evidence";
import { workspaceSourceOf } from "../loops/ports-factory";
import { queueCompletedSentBack, setLandingKick } from "../loops/landing.service";
import { settleOpenRaces } from "../loops/race-settle.service";

export interface LanderOptions {
  db: Database;
  instanceId: string;
  leaseMs: number;
  heartbeatMs: number;
  checkTimeoutMs: number;
  /** Landings of one entry in a row after which a target that keeps moving needs review. */
  maxAttempts?: number;
  /** Agent deps for the checks (tests turn the sandbox off here). */
  deps?: Partial<AgentDeps>;
  log?: (message: string) => void;
}

export const landingWorktreeDir = (queueId: string) =>
  resolve(getEnv().RALPH_DATA_DIR, "worktrees", ".landing", shortLoopId(queueId));

type Detail = { results?: string[]; [key: string]: unknown };

/** Lands a queue's entries until it is empty; returns how many it finished (0: another lander holds it). */
export async function landQueue(opts: LanderOptions, queueId: string): Promise<number> {
  const owner = `${opts.instanceId}:${randomUUID()}`;
  if (!(await claimQueue(opts.db.prisma, queueId, owner, new Date(), opts.leaseMs))) return 0;
  let lost = false;
  const heartbeat = setInterval(() => {
    renewQueueLease(opts.db.prisma, queueId, owner, new Date(), opts.leaseMs)
      .then((kept) => {
        if (!kept) lost = true;
      })
      .catch((error: unknown) => opts.log?.(`landing heartbeat: ${String(error)}`));
  }, opts.heartbeatMs);
  heartbeat.unref?.();
  let done = 0;
  try {
    for (;;) {
      if (lost) break;
      const queue = await queueById(opts.db.prisma, queueId);
      const [entry] = queue ? await openEntries(opts.db.prisma, queueId) : [];
      if (!queue || !entry) break;
      await landEntry(opts, queue, entry, owner);
      done++;
    }
  } catch (error) {
    if (!(error instanceof LandingLeaseLostError)) throw error;
    opts.log?.(error.message);
  } finally {
    clearInterval(heartbeat);
    await releaseQueue(opts.db.prisma, queueId, owner).catch(() => undefined);
  }
  return done;
}

async function landEntry(opts: LanderOptions, queue: LandingQueueRow, entry: LandingEntryRow, owner: string) {
  const db = opts.db.prisma;
  const common = queue.repo;
  const target = queue.targetBranch;
  const detail = (entry.detail ?? {}) as Detail;
  const results = detail.results ?? [];
  const write = async (data: Parameters<typeof updateEntryFenced>[3], events: Omit<NewLoopEvent, "loopId">[] = []) => {
    const row = await updateEntryFenced(
      db,
      { queueId: queue.id, owner, now: new Date() },
      entry.id,
      data,
      events.map((e) => ({
        loopId: entry.loopId,
        actor: "merge queue",
        ...e,
        payload: { entryId: entry.id, queueId: queue.id, targetBranch: target, ...(e.payload as object) },
      })),
    );
    if (events.length > 0) void notifyEventsWritten(opts.db).catch(() => undefined);
    return row;
  };
  const needsReview = (reason: string, more: Detail = {}) =>
    write({ status: "needs_review", reason, detail: { ...detail, results, ...more }, finishedAt: new Date() }, [
      { type: "landing_needs_review", reason, payload: { kind: more.kind ?? "refused" } },
    ]);
  // Landed; `behind` names the checkouts of the target that could not be brought forward with it.
  const landed = (sha: string, more: Detail = {}, behind: string[] = []) =>
    write(
      {
        status: "landed",
        landedSha: sha,
        reason: behind.length > 0 ? behind.join("; ") : null,
        detail: { ...detail, results, ...more, ...(behind.length > 0 ? { checkoutsBehind: behind } : {}) },
        finishedAt: new Date(),
      },
      [
        {
          type: "landing_landed",
          reason: [`landed on ${target} at ${sha.slice(0, 12)}`, ...behind].join("; "),
          payload: { sha, checkoutsBehind: behind },
        },
      ],
    );

  const head = await refSha(common, branchRef(target));
  if (!head) return needsReview(`the target branch ${target} no longer exists`);
  // A lander that stopped after its compare-and-swap: the target already holds one of this entry's results.
  // Killed between that swap and bringing a clean checkout of the target forward? That is finished here.
  for (const sha of results)
    if (await isAncestor(common, sha, head)) {
      const behind = entry.baseSha
        ? await forwardCheckouts(common, target, landingWorktreeDir(queue.id), { from: entry.baseSha, to: head })
        : [];
      return landed(sha, { recovered: true }, behind);
    }
  const resumed = entry.status !== "queued";
  if (entry.attempts >= (opts.maxAttempts ?? 5))
    return needsReview(`the target kept moving: ${entry.attempts} landings were overtaken; re-queue to try again`);
  await write(
    { status: "rebasing", attempts: { increment: 1 }, startedAt: new Date(), baseSha: head, resultSha: null },
    [
      {
        type: "landing_started",
        reason: resumed
          ? `the previous lander stopped while ${entry.status}; rolled back and landing again onto ${head.slice(0, 12)}`
          : `landing onto ${target} at ${head.slice(0, 12)}`,
        payload: { baseSha: head, resumed },
      },
    ],
  );
  const source = await refSha(common, branchRef(entry.sourceBranch));
  if (!source) return needsReview(`the loop's branch ${entry.sourceBranch} was deleted`, { kind: "branch_deleted" });
  if (await isAncestor(common, source, head))
    return needsReview(`nothing to land: ${entry.sourceBranch} has no commit that ${target} lacks`, { kind: "empty" });
  const dir = landingWorktreeDir(queue.id);
  const refused = await targetCheckoutProblem(common, target, dir);
  if (refused) return needsReview(refused, { kind: "checkout" });
  await resetLandingWorktree(common, dir, head);
  const merged = await integrate(dir, {
    strategy: queue.strategy === "merge" ? "merge" : "rebase",
    base: head,
    source,
    message: `Land ${entry.sourceBranch} (loop ${entry.loopId}) onto ${target}`,
  });
  if (!merged.ok)
    return needsReview(
      `${queue.strategy === "merge" ? "merging" : "rebasing"} onto ${target} conflicts in ${merged.conflicts.join(", ") || "the history"}`,
      { kind: "conflict", conflicts: merged.conflicts, diff: merged.diff },
    );
  const tried = [...results, merged.sha].slice(-20);
  await write({ status: "checking", resultSha: merged.sha, detail: { ...detail, results: tried } }, [
    {
      type: "landing_checking",
      reason: `re-running the evidence on ${merged.sha.slice(0, 12)}`,
      payload: { resultSha: merged.sha },
    },
  ]);
  const loop = await loopForLanding(db, entry.loopId);
  if (!loop) return;
  let evidence: EvidenceRun;
  try {
    evidence = await rerunLoopEvidence({
      runId: entry.id,
      loop,
      loopWorkspace: workspaceSourceOf(loop.id, loop.config),
      common,
      dir,
      baseSha: head,
      resultSha: merged.sha,
      timeoutMs: opts.checkTimeoutMs,
      ...(opts.deps ? { deps: opts.deps } : {}),
    });
  } catch (error) {
    const timeout = error instanceof LandingCheckTimeoutError;
    return needsReview(
      timeout ? `the check timed out: ${error.message}` : `the evidence could not be re-run: ${String(error)}`,
      {
        kind: timeout ? "timeout" : "error",
        results: tried,
      },
    );
  }
  const evidenceDetail = {
    checks: evidence.checks,
    notes: evidence.notes,
    evidenceMs: evidence.durationMs,
    results: tried,
  };
  if (!evidence.ok) {
    const failing = evidence.checks.filter((c) => !c.ok);
    return needsReview(
      failing.length > 0
        ? `the evidence failed on the rebased result: ${failing.map((c) => `${c.name} (${c.failing.slice(0, 3).join("; ") || c.reason})`).join(", ")}`
        : `no evidence to re-run: ${evidence.notes.join("; ")}`,
      { kind: "evidence", ...evidenceDetail },
    );
  }
  // Checked again right before the swap, with the move itself: would a clean checkout of the target come along?
  const late = await targetCheckoutProblem(common, target, dir, { from: head, to: merged.sha });
  if (late) return needsReview(late, { kind: "checkout", ...evidenceDetail });
  // Still ours? A lander that lost its lease must not move the target (the CAS would still refuse a moved one).
  if (!(await renewQueueLease(db, queue.id, owner, new Date(), opts.leaseMs)))
    throw new LandingLeaseLostError(queue.id);
  const swapped = await compareAndSwapBranch(
    common,
    target,
    merged.sha,
    head,
    `ralph: land ${entry.sourceBranch} (loop ${entry.loopId}) after green evidence`,
  );
  // The ref moves first (the one decision), the checkouts follow; a kill in between is finished by the next lander.
  if (swapped)
    return landed(
      merged.sha,
      evidenceDetail,
      await forwardCheckouts(common, target, dir, { from: head, to: merged.sha }),
    );
  const now = await refSha(common, branchRef(target));
  if (now && (await isAncestor(common, merged.sha, now)))
    return landed(merged.sha, evidenceDetail, await forwardCheckouts(common, target, dir, { from: head, to: now }));
  // Moved during the check: queued again at the front (its place is kept), never forced.
  return write({ status: "queued", detail: { ...detail, ...evidenceDetail } as unknown as JsonInput }, [
    {
      type: "landing_requeued",
      reason: `${target} moved during the check (${head.slice(0, 12)} → ${now?.slice(0, 12) ?? "gone"}); landing again on the new head`,
      payload: { from: head, to: now },
    },
  ]);
}

export interface LandingSweeper {
  sweepNow(): Promise<number>;
  kick(queueId: string): void;
  stop(): Promise<void>;
}

/**
 * Finds queues with work and no live lander (at start, after a crash, periodically) and lands them;
 * `beforeSweep` runs first each time (queuing loops sent back to work that completed since).
 */
export function startLandingSweeper(
  opts: LanderOptions,
  intervalMs: number,
  beforeSweep?: () => Promise<unknown>,
): LandingSweeper {
  const running = new Map<string, Promise<unknown>>();
  let stopped = false;
  const run = (queueId: string) => {
    if (stopped || running.has(queueId)) return;
    const p = landQueue(opts, queueId)
      .catch((error: unknown) => opts.log?.(`landing ${queueId}: ${String(error)}`))
      .finally(() => running.delete(queueId));
    running.set(queueId, p);
  };
  const sweepNow = async () => {
    await beforeSweep?.().catch((error: unknown) => opts.log?.(`landing sweep: ${String(error)}`));
    const due = await dueQueues(opts.db.prisma, new Date()).catch(() => []);
    for (const id of due) run(id);
    return due.length;
  };
  const timer = setInterval(() => void sweepNow(), intervalMs);
  timer.unref?.();
  return {
    sweepNow,
    kick: run,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await Promise.all(running.values());
    },
  };
}

/** The landing sweep of a process (app or worker), with the settings from the environment. */
export function startProcessLandings(
  db: Database,
  instanceId: string,
  svc: Parameters<typeof queueCompletedSentBack>[0],
  log?: (message: string) => void,
): LandingSweeper {
  const env = getEnv();
  const sweeper = startLandingSweeper(
    {
      db,
      instanceId,
      leaseMs: env.RALPH_LEASE_MS,
      heartbeatMs: env.RALPH_HEARTBEAT_MS,
      checkTimeoutMs: env.RALPH_LANDING_CHECK_TIMEOUT_MS,
      ...(log ? { log } : {}),
    },
    env.RALPH_SWEEP_INTERVAL_MS,
    async () => {
      // A week back: a loop sent back to work that completes later is queued again when it does.
      await queueCompletedSentBack(svc, new Date(Date.now() - 7 * 24 * 3600_000));
      // A race whose winner completed while its process died before settling is decided (and landed) here.
      await settleOpenRaces(svc);
    },
  );
  setLandingKick((queueId) => sweeper.kick(queueId));
  void sweeper.sweepNow();
  return sweeper;
}

// The merge queue's use cases (docs/merge-queue.md): enqueue a loop's branch
// for landing, read a queue and a loop's place in it, and the operator's
// answers to an entry that needs review (send the loop back to work, re-queue
// after a manual fix, drop it). Landing itself runs as a durable job
// (server/jobs/landing-runner.ts). Every change is an audit event with who and why.
import { loopBranch, shortLoopId } from "../agents/git/git-workspace";
import { branchRef, landingRepoOf, refSha, reviewCommit } from "../agents/git/landing-git";
import { git } from "../agents/git/git-cli";
import { loopById } from "../db/loops.repo";
import {
  ensureQueue,
  entryById,
  insertEntry,
  loopHasLanding,
  sentBackSince,
  openEntries,
  queueById,
  setQueueStrategy,
  updateEntryIf,
  type LandingEntryRow,
  type LandingQueueRow,
} from "../db/landing.repo";
import { conflict, invalidInput, notFound } from "../errors";
import { notifyEventsWritten } from "../events/event-wakeups";
import { forkLoop } from "./loop-create.service";
import { actorName, type ActingAs, type LoopServices } from "./loop-services";
import { workspaceSourceOf } from "./ports-factory";
import { landingView, type LandingEntryView } from "./landing-views";

export type { LandingEntryView } from "./landing-views";

/** Wakes a lander for a queue at once (the app runtime sets it); the landing sweep finds it otherwise. */
let kick: (queueId: string) => void = () => undefined;
export function setLandingKick(fn: (queueId: string) => void): void {
  kick = fn;
}

export interface EnqueueLandingInput {
  loopId: string;
  actor: ActingAs["actor"];
  reason?: string | null;
  /** The branch to land onto; by default the branch the repository's checkout has checked out. */
  targetBranch?: string;
}

/** Where a loop's work lives in git: its repository and its branch, or why it cannot be landed. */
async function loopGit(loop: { id: string; config: unknown }) {
  let source: string;
  try {
    source = workspaceSourceOf(loop.id, loop.config);
  } catch (error) {
    throw invalidInput(`The loop's workspace cannot be used: ${error instanceof Error ? error.message : error}`);
  }
  const top = (await git(source, ["rev-parse", "--show-toplevel"], { allowFail: true })).trim();
  if (top === "") throw invalidInput("The loop's workspace is not in a git repository: there is no branch to land");
  const repo = await landingRepoOf(source);
  const branch = loopBranch(loop.id);
  const sha = await refSha(repo.common, branchRef(branch));
  if (!sha) throw invalidInput(`The loop's branch ${branch} does not exist (an in-place loop, or deleted by hand)`);
  return { source, top, repo, branch, sha };
}

/** Queues the loop's `ralph/<id>` branch; a loop already queued keeps its place (the same entry comes back). */
export async function enqueueLanding(svc: LoopServices, input: EnqueueLandingInput): Promise<LandingEntryView> {
  const loop = await loopById(svc.db.prisma, input.loopId);
  if (!loop) throw notFound("Loop", input.loopId);
  const where = await loopGit(loop);
  if (loop.status !== "completed") {
    const ahead = await git(
      where.repo.common,
      ["rev-list", "--count", `refs/ralph/${shortLoopId(loop.id)}/baseline..${where.sha}`],
      {
        allowFail: true,
      },
    );
    if (!(Number(ahead.trim()) > 0))
      throw conflict(
        `The loop has no snapshot to land yet (status ${loop.status}); land it once it has changed something`,
      );
  }
  let target = input.targetBranch?.trim() ?? "";
  if (target === "") {
    target = (await git(where.top, ["symbolic-ref", "--short", "-q", "HEAD"], { allowFail: true })).trim();
    if (target === "" || target.startsWith("ralph/"))
      throw invalidInput(
        "Name the branch to land onto: the repository's checkout has no branch of its own checked out",
      );
  }
  if (!(await refSha(where.repo.common, branchRef(target))))
    throw invalidInput(`The target branch ${target} does not exist in ${where.repo.common}`);
  if (target === where.branch) throw invalidInput("A loop's branch cannot be landed onto itself");
  const queue = await ensureQueue(svc.db.prisma, {
    id: svc.engine.newId(),
    repo: where.repo.common,
    targetBranch: target,
  });
  const reason = input.reason?.trim() || null;
  const { entry, created } = await insertEntry(
    svc.db.prisma,
    {
      id: svc.engine.newId(),
      queueId: queue.id,
      loopId: loop.id,
      sourceBranch: where.branch,
      sourceSha: where.sha,
      actorId: input.actor.id,
      actor: actorName(input.actor),
      requestReason: reason,
      createdAt: new Date(svc.engine.now()),
    },
    {
      loopId: loop.id,
      type: "landing_queued",
      actorId: input.actor.id,
      actor: actorName(input.actor),
      reason: reason ?? `land ${where.branch} onto ${target}`,
      payload: { queueId: queue.id, targetBranch: target, sourceSha: where.sha },
    },
  );
  if (created) void notifyEventsWritten(svc.db);
  kick(queue.id);
  return viewOf(svc, entry);
}

async function viewOf(svc: LoopServices, entry: LandingEntryRow, queue?: LandingQueueRow | null) {
  const q = queue ?? (await queueById(svc.db.prisma, entry.queueId));
  const open = await openEntries(svc.db.prisma, entry.queueId);
  return landingView(entry, q!, open);
}

async function entryOrThrow(svc: LoopServices, entryId: string) {
  const entry = await entryById(svc.db.prisma, entryId);
  if (!entry) throw notFound("Landing", entryId);
  return entry;
}

/**
 * An operator's move of one entry (drop, re-queue): applied only from the statuses it is allowed
 * from (compare-and-set), with its audit event; a refused move says why.
 */
async function moveEntry(
  svc: LoopServices,
  entryId: string,
  acting: ActingAs,
  move: {
    from: Parameters<typeof updateEntryIf>[2];
    to: (now: Date, reason: string) => Parameters<typeof updateEntryIf>[3];
    event: string;
    defaultReason: string;
    refused: string;
  },
): Promise<LandingEntryRow> {
  const entry = await entryOrThrow(svc, entryId);
  const reason = acting.reason?.trim() || move.defaultReason;
  const row = await updateEntryIf(svc.db.prisma, entryId, move.from, move.to(new Date(svc.engine.now()), reason), [
    event(entry, move.event, acting, reason),
  ]);
  if (!row) throw conflict(`The landing is ${entry.status}; ${move.refused}`);
  void notifyEventsWritten(svc.db);
  return row;
}

/** Drops a queued entry or one that needs review; an entry being landed cannot be dropped. */
export async function cancelLanding(svc: LoopServices, entryId: string, acting: ActingAs): Promise<LandingEntryView> {
  const row = await moveEntry(svc, entryId, acting, {
    from: ["queued", "needs_review"],
    to: (now, reason) => ({ status: "cancelled", reason, finishedAt: now }),
    event: "landing_cancelled",
    defaultReason: "dropped from the queue",
    refused: "only a queued one or one that needs review can be dropped",
  });
  return viewOf(svc, row);
}

/** Puts an entry that needs review (fixed by hand) back at the end of its queue. */
export async function requeueLanding(svc: LoopServices, entryId: string, acting: ActingAs): Promise<LandingEntryView> {
  const row = await moveEntry(svc, entryId, acting, {
    from: ["needs_review"],
    to: (now) => ({ status: "queued", reason: null, createdAt: now, finishedAt: null }),
    event: "landing_requeued",
    defaultReason: "re-queued after review",
    refused: "only one that needs review can be re-queued",
  });
  kick(row.queueId);
  return viewOf(svc, row);
}

const event = (entry: LandingEntryRow, type: string, acting: ActingAs, reason: string, payload?: object) => ({
  loopId: entry.loopId,
  type,
  actorId: acting.actor.id,
  actor: actorName(acting.actor),
  reason,
  payload: { entryId: entry.id, queueId: entry.queueId, ...payload },
});

/** What the loop's next iteration is told: the conflict or the failing tests, and what to do. */
export function sentBackNote(entry: LandingEntryRow, target: string): string {
  const detail = (entry.detail ?? {}) as {
    conflicts?: string[];
    checks?: { name: string; ok: boolean; failing: string[] }[];
  };
  if (detail.conflicts && detail.conflicts.length > 0)
    return [
      `Landing onto ${target} found a merge conflict. Your work was merged onto ${target}'s current head; these files hold conflict markers (<<<<<<< ======= >>>>>>>):`,
      ...detail.conflicts.map((f) => `- ${f}`),
      `Resolve them keeping both sides' intent (${target}'s change is already landed), remove every marker, and make the checks pass.`,
    ].join("\n");
  const failing = (detail.checks ?? []).filter((c) => !c.ok);
  return [
    `Landing onto ${target} re-ran the evidence on your work rebased onto ${target}'s current head, and it failed:`,
    ...failing.flatMap((c) => [`- check "${c.name}":`, ...c.failing.slice(0, 20).map((f) => `  - ${f}`)]),
    entry.reason ? `(${entry.reason})` : "",
    `Your work now sits on ${target}'s current head. Make the checks pass there.`,
  ]
    .filter(Boolean)
    .join("\n");
}

/**
 * Sends the loop back to work from an entry that needs review: a new loop
 * (a fork continuing its iterations) starts on the target's current head with
 * the loop's change merged onto it (conflict markers left in place), told the
 * conflict or the failing tests; the entry is closed naming it, and the fork
 * is queued for landing when it completes (landing sweep).
 */
export async function sendBackToWork(
  svc: LoopServices,
  entryId: string,
  acting: ActingAs,
): Promise<{ entry: LandingEntryView; loopId: string }> {
  const entry = await entryOrThrow(svc, entryId);
  if (entry.status !== "needs_review")
    throw conflict(`The landing is ${entry.status}; only one that needs review can be sent back`);
  const queue = (await queueById(svc.db.prisma, entry.queueId))!;
  const loop = await loopById(svc.db.prisma, entry.loopId);
  if (!loop) throw notFound("Loop", entry.loopId);
  const base = await refSha(queue.repo, branchRef(queue.targetBranch));
  const source = await refSha(queue.repo, branchRef(entry.sourceBranch));
  if (!base || !source)
    throw conflict(`The ${base ? "loop's branch" : "target branch"} is gone; drop the landing instead`);
  const review = await reviewCommit(queue.repo, {
    base,
    source,
    message: `ralph: loop ${loop.id} onto ${queue.targetBranch} for review${entry.reason ? ` (${entry.reason.slice(0, 150)})` : ""}`,
    keepRef: `refs/ralph/landing/${shortLoopId(entry.id)}/review`,
  });
  const nudge = sentBackNote(entry, queue.targetBranch);
  const fork = await forkLoop(svc, loop.id, loop.iteration, true, acting, undefined, {
    startAt: review.sha,
    nudge,
    moreIterations: 3,
  });
  const reason = acting.reason?.trim() || `sent back to work as loop ${fork.id}`;
  const row = await updateEntryIf(
    svc.db.prisma,
    entryId,
    ["needs_review"],
    { status: "cancelled", reason, sentBackLoopId: fork.id, finishedAt: new Date(svc.engine.now()) },
    [event(entry, "landing_sent_back", acting, reason, { forkId: fork.id, startAt: review.sha })],
  );
  if (!row) throw conflict("The landing changed meanwhile");
  void notifyEventsWritten(svc.db);
  return { entry: await viewOf(svc, row, queue), loopId: fork.id };
}

/** Who queues a loop sent back to work once it completes. */
const MERGE_QUEUE_ACTOR = { id: null, email: "merge queue", name: "Merge queue", role: "operator" as const };

/**
 * Queues the loops sent back to work that have completed since (their fork of
 * the entry), onto the same target: called by the landing sweep. Returns how many it queued.
 */
export async function queueCompletedSentBack(svc: LoopServices, since: Date): Promise<number> {
  const sent = await sentBackSince(svc.db.prisma, since);
  let queued = 0;
  for (const s of sent) {
    const forkId = s.sentBackLoopId!;
    const fork = await loopById(svc.db.prisma, forkId);
    if (fork?.status !== "completed") continue;
    if (await loopHasLanding(svc.db.prisma, forkId)) continue;
    await enqueueLanding(svc, {
      loopId: forkId,
      actor: MERGE_QUEUE_ACTOR,
      reason: "sent back to work and completed: landing again",
      targetBranch: s.queue.targetBranch,
    }).then(
      () => queued++,
      () => undefined,
    );
  }
  return queued;
}

/** How a queue's entries are brought onto its target: a rebase (default) or a merge commit. */
export async function setLandingStrategy(svc: LoopServices, queueId: string, strategy: "rebase" | "merge") {
  if (!(await queueById(svc.db.prisma, queueId))) throw notFound("Landing queue", queueId);
  const q = await setQueueStrategy(svc.db.prisma, queueId, strategy);
  return { id: q.id, strategy: q.strategy };
}

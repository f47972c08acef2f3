// What the merge queue's readers see: an entry with its queue and its place
// in line, a queue with its open entries and its history, a loop's landings.
import {
  entriesOfLoop,
  listQueues,
  openEntries,
  queueById,
  queueHistory,
  type LandingEntryRow,
  type LandingQueueRow,
  type LandingStatus,
} from "../db/landing.repo";
import type { Db } from "../db/client";
import { notFound } from "../errors";

/** What a landing found: the conflict (files, diff with markers), the evidence re-run (each check). */
export interface LandingDetail {
  kind?: string;
  conflicts?: string[];
  diff?: string;
  checks?: { name: string; ok: boolean; score: number; reason: string; failing: string[] }[];
  notes?: string[];
  evidenceMs?: number;
}

export interface LandingEntryView {
  id: string;
  queueId: string;
  loopId: string;
  repo: string;
  targetBranch: string;
  strategy: string;
  sourceBranch: string;
  sourceSha: string;
  status: LandingStatus;
  /** 1 = being landed or next; null once the entry left the queue. */
  position: number | null;
  reason: string | null;
  detail: LandingDetail | null;
  baseSha: string | null;
  resultSha: string | null;
  landedSha: string | null;
  attempts: number;
  sentBackLoopId: string | null;
  actor: string;
  requestReason: string | null;
  createdAt: Date;
  updatedAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

export function landingView(entry: LandingEntryRow, queue: LandingQueueRow, open: LandingEntryRow[]): LandingEntryView {
  const index = open.findIndex((e) => e.id === entry.id);
  return {
    id: entry.id,
    queueId: entry.queueId,
    loopId: entry.loopId,
    repo: queue.repo,
    targetBranch: queue.targetBranch,
    strategy: queue.strategy,
    sourceBranch: entry.sourceBranch,
    sourceSha: entry.sourceSha,
    status: entry.status as LandingStatus,
    position: index < 0 ? null : index + 1,
    reason: entry.reason,
    detail: (entry.detail ?? null) as LandingDetail | null,
    baseSha: entry.baseSha,
    resultSha: entry.resultSha,
    landedSha: entry.landedSha,
    attempts: entry.attempts,
    sentBackLoopId: entry.sentBackLoopId,
    actor: entry.actor,
    requestReason: entry.requestReason,
    createdAt: entry.createdAt,
    updatedAt: entry.updatedAt,
    startedAt: entry.startedAt,
    finishedAt: entry.finishedAt,
  };
}

export interface LandingQueueView {
  id: string;
  repo: string;
  targetBranch: string;
  strategy: string;
  /** A lander holds the queue now. */
  busy: boolean;
  open: LandingEntryView[];
  history: LandingEntryView[];
}

/** One queue: its open entries in landing order, then its history (newest first). */
export async function readLandingQueue(db: Db, queueId: string, historyLimit = 50): Promise<LandingQueueView> {
  const queue = await queueById(db, queueId);
  if (!queue) throw notFound("Landing queue", queueId);
  const [open, history] = await Promise.all([openEntries(db, queueId), queueHistory(db, queueId, historyLimit)]);
  return {
    id: queue.id,
    repo: queue.repo,
    targetBranch: queue.targetBranch,
    strategy: queue.strategy,
    busy: queue.leaseOwner !== null && (queue.leaseExpiresAt?.getTime() ?? 0) > Date.now(),
    open: open.map((e) => landingView(e, queue, open)),
    history: history.filter((e) => !open.some((o) => o.id === e.id)).map((e) => landingView(e, queue, open)),
  };
}

/** Every queue with its open count; `repo` narrows to the queues of repositories whose path contains it. */
export async function listLandingQueues(db: Db, repo?: string) {
  const queues = (await listQueues(db)).filter((q) => !repo || q.repo.includes(repo));
  return Promise.all(
    queues.map(async (q) => {
      const open = await openEntries(db, q.id);
      return { id: q.id, repo: q.repo, targetBranch: q.targetBranch, strategy: q.strategy, open: open.length };
    }),
  );
}

/** A loop's landings, newest first, each with its place in line. */
export async function landingsOfLoop(db: Db, loopId: string): Promise<LandingEntryView[]> {
  const rows = await entriesOfLoop(db, loopId);
  const views: LandingEntryView[] = [];
  for (const row of rows) {
    const queue = await queueById(db, row.queueId);
    if (!queue) continue;
    views.push(landingView(row, queue, await openEntries(db, row.queueId)));
  }
  return views;
}

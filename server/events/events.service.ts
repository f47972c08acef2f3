// The event log as the API serves it: one loop's audit trail a page at a
// time, and the live stream that resumes where a subscriber left off.
import type { Database } from "../db/client";
import { latestCommittedEventId, listEvents, type StoredLoopEvent } from "../db/events.repo";
import { userNamesByIds } from "../db/users.repo";
import { streamEvents } from "./event-stream";
import { getEventWakeups } from "./event-wakeups";

/**
 * Pins the stream's starting point, then returns the events after it as they
 * commit. Awaiting this before answering means that once a subscriber sees
 * the stream connected, every event committed afterwards reaches it.
 *
 * @param lastEventId the last id this subscriber received (a reconnect), or
 *   null to start from now.
 */
export async function openEventStream(
  db: Database,
  options: { loopId?: string; lastEventId?: number | null; signal: AbortSignal },
): Promise<AsyncGenerator<StoredLoopEvent, void, undefined>> {
  const latest = await latestCommittedEventId(db);
  // A delivered id is committed, so it is never above the newest id unless
  // the database was reset or its newest events deleted: then resume from
  // the newest, or the stream would wait for ids that may never come.
  const afterId = options.lastEventId ? Math.min(options.lastEventId, latest) : latest;
  return streamEvents(db, {
    loopId: options.loopId,
    afterId,
    signal: options.signal,
    wakeups: getEventWakeups(db),
  });
}

/**
 * One loop's events, newest first; `nextBeforeId` fetches the page after it.
 * `actorName` names the person who acted (null for the engine and agents).
 */
export async function listLoopEvents(
  db: Database,
  loopId: string,
  page: { beforeId?: number; limit: number; types?: string[] },
) {
  const rows = await listEvents(db.prisma, loopId, page);
  const ids = [...new Set(rows.flatMap((e) => (e.actorId ? [e.actorId] : [])))];
  const users = ids.length ? await userNamesByIds(db.prisma, ids) : [];
  const names = new Map(users.map((u) => [u.id, u.name || u.email]));
  const items = rows.map((e) => ({ ...e, actorName: (e.actorId && names.get(e.actorId)) || null }));
  return { items, nextBeforeId: items.length === page.limit ? items.at(-1)?.id : undefined };
}

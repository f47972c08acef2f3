// Alert channels, per-loop mutes and the delivery outbox. Outbox rows are
// written by appendEvents in the event's own transaction; deliverers claim
// due rows with a lease (compare-and-set), so a crashed deliverer's rows go
// to the next one when the lease runs out, and two never send the same
// attempt.
import { alertKindOf, noticeClassOf, type AlertKind } from "../alert-kinds";
import type { Db } from "./prisma-client";
import type { Tx } from "./tx";

export interface ChannelRow {
  id: string;
  name: string;
  kind: string;
  urlCiphertext: string;
  urlHost: string;
  secretCiphertext: string;
  events: string;
  loopIds: string;
  enabled: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export const eventsOf = (channel: { events: string }) => channel.events.split(",").filter(Boolean);
/** The loops a channel is limited to; empty means every loop. */
export const loopIdsOf = (channel: { loopIds: string }) => channel.loopIds.split(",").filter(Boolean);

/** The idempotency key of an event's alert on one channel: the same on every attempt, by any deliverer. */
export const deliveryIdFor = (eventId: number, channelId: string) => `evt-${eventId}-${channelId}`;

/** The alertable events among `events`, with their kind. */
export function alertsOf<E extends { type: string; payload: unknown }>(events: E[]) {
  return events.flatMap((event) => {
    const kind = alertKindOf(event);
    return kind ? [{ event, kind }] : [];
  });
}

/**
 * The outbox rows for alerts, given the enabled channels and the loops' active
 * mutes. Pure, so the Prisma path and the lean step commit fill it alike.
 */
export function deliveryRows(
  alerts: { event: { id: number; loopId: string | null; type: string; payload: unknown }; kind: AlertKind }[],
  channels: { id: string; events: string; loopIds: string; createdById?: string | null }[],
  mutes: { loopId: string; kind: string }[],
  now: Date,
  /** Users' own mutes: they silence only that user's push subscriptions (channels they created). */
  userMutes: NoticeMuteRow[] = [],
) {
  const muted = (loopId: string | null, kind: AlertKind) =>
    mutes.some((m) => m.loopId === loopId && (m.kind === kind || m.kind === "*"));
  const mutedFor = (
    userId: string | null | undefined,
    loopId: string | null,
    event: { type: string; payload: unknown },
  ) => {
    const cls = noticeClassOf(event);
    return userMutes.some(
      (m) =>
        m.userId === userId &&
        (m.loopId === "" || m.loopId === loopId) &&
        (m.noticeClass === "*" || m.noticeClass === cls),
    );
  };
  return alerts.flatMap(({ event, kind }) =>
    muted(event.loopId, kind)
      ? []
      : channels
          .filter((c) => eventsOf(c).includes(kind))
          .filter((c) => !c.loopIds || (event.loopId !== null && loopIdsOf(c).includes(event.loopId)))
          .filter((c) => !c.createdById || !mutedFor(c.createdById, event.loopId, event))
          .map((c) => ({
            id: deliveryIdFor(event.id, c.id),
            channelId: c.id,
            eventId: event.id,
            loopId: event.loopId,
            kind,
            nextAttemptAt: now,
            createdAt: now,
          })),
  );
}

/** Fills the outbox for stored events; called inside the transaction that appended them. */
export async function enqueueAlerts(
  tx: Tx | Db,
  events: { id: number; loopId: string | null; type: string; payload: unknown }[],
  now: Date,
): Promise<number> {
  const alerts = alertsOf(events);
  if (alerts.length === 0) return 0;
  const channels = await tx.alertChannel.findMany({
    where: { enabled: true },
    select: { id: true, events: true, loopIds: true, kind: true, createdById: true },
  });
  if (channels.length === 0) return 0;
  const loopIds = [...new Set(alerts.flatMap((a) => (a.event.loopId ? [a.event.loopId] : [])))];
  const mutes = await tx.alertMute.findMany({
    where: { loopId: { in: loopIds }, OR: [{ until: null }, { until: { gt: now } }] },
    select: { loopId: true, kind: true },
  });
  const pushUsers = pushChannelUsers(channels);
  const userMutes = pushUsers.length
    ? await tx.noticeMute.findMany({
        where: { userId: { in: pushUsers } },
        select: { userId: true, loopId: true, noticeClass: true },
      })
    : [];
  const rows = deliveryRows(alerts, pushChannels(channels), mutes, now, userMutes);
  if (rows.length) await tx.alertDelivery.createMany({ data: rows });
  return rows.length;
}

export interface NoticeMuteRow {
  userId: string;
  loopId: string;
  noticeClass: string;
}

/** The channel kind of a browser's push subscription (one channel per subscription, owned by its user). */
export const PUSH_CHANNEL_KIND = "webpush";

/** Keeps the owner only on push channels: a shared webhook is never silenced by one user's mute. */
export const pushChannels = <C extends { kind: string; createdById: string | null }>(channels: C[]) =>
  channels.map((c) => ({ ...c, createdById: c.kind === PUSH_CHANNEL_KIND ? c.createdById : null }));

export const pushChannelUsers = (channels: { kind: string; createdById: string | null }[]) => [
  ...new Set(channels.flatMap((c) => (c.kind === PUSH_CHANNEL_KIND && c.createdById ? [c.createdById] : []))),
];

export function insertTestDelivery(prisma: Db, row: { id: string; channelId: string; now: Date }) {
  return prisma.alertDelivery.create({
    data: { id: row.id, channelId: row.channelId, kind: "test", nextAttemptAt: row.now, createdAt: row.now },
    select: { id: true },
  });
}

export interface ClaimedDelivery {
  id: string;
  eventId: number | null;
  loopId: string | null;
  kind: string;
  message: string | null;
  attempts: number;
  createdAt: Date;
  channel: ChannelRow;
}

/**
 * Takes up to `limit` due rows for `owner` until `leaseUntil`. A row is due
 * when pending, its next attempt has come, and no live lease holds it.
 */
export async function claimDueDeliveries(
  prisma: Db,
  input: { owner: string; now: Date; leaseUntil: Date; limit: number },
): Promise<ClaimedDelivery[]> {
  const free = { OR: [{ leaseExpiresAt: null }, { leaseExpiresAt: { lt: input.now } }] };
  const due = await prisma.alertDelivery.findMany({
    // A disabled channel's rows wait (they go out if it is enabled again).
    where: { status: "pending", nextAttemptAt: { lte: input.now }, channel: { enabled: true }, ...free },
    orderBy: { nextAttemptAt: "asc" },
    take: input.limit,
    select: { id: true },
  });
  const claimed: string[] = [];
  for (const { id } of due) {
    const won = await prisma.alertDelivery.updateMany({
      where: { id, status: "pending", ...free },
      data: { leaseOwner: input.owner, leaseExpiresAt: input.leaseUntil },
    });
    if (won.count === 1) claimed.push(id);
  }
  if (claimed.length === 0) return [];
  return prisma.alertDelivery.findMany({
    where: { id: { in: claimed }, leaseOwner: input.owner },
    orderBy: { nextAttemptAt: "asc" },
    select: {
      id: true,
      eventId: true,
      loopId: true,
      kind: true,
      message: true,
      attempts: true,
      createdAt: true,
      channel: true,
    },
  });
}

/** Keeps the exact body the first attempt built, so every retry sends the same message. */
export async function saveDeliveryMessage(prisma: Db, id: string, owner: string, message: string) {
  await prisma.alertDelivery.updateMany({ where: { id, leaseOwner: owner }, data: { message } });
}

/** Records one attempt's outcome; fenced by the lease, so a deliverer that lost it writes nothing. */
export async function settleDelivery(
  prisma: Db,
  id: string,
  owner: string,
  outcome:
    | { status: "delivered"; httpStatus: number; at: Date }
    | { status: "pending" | "dead"; httpStatus: number | null; error: string; nextAttemptAt: Date },
): Promise<boolean> {
  const done = await prisma.alertDelivery.updateMany({
    where: { id, leaseOwner: owner, status: "pending" },
    data:
      outcome.status === "delivered"
        ? {
            status: "delivered",
            attempts: { increment: 1 },
            lastStatus: outcome.httpStatus,
            lastError: null,
            deliveredAt: outcome.at,
            leaseOwner: null,
            leaseExpiresAt: null,
          }
        : {
            status: outcome.status,
            attempts: { increment: 1 },
            lastStatus: outcome.httpStatus,
            lastError: outcome.error.slice(0, 1000),
            nextAttemptAt: outcome.nextAttemptAt,
            leaseOwner: null,
            leaseExpiresAt: null,
          },
  });
  return done.count === 1;
}

/** Sends a dead (or pending) row again from now, as a fresh series of attempts. */
export async function retryDelivery(prisma: Db, id: string, now: Date): Promise<boolean> {
  const done = await prisma.alertDelivery.updateMany({
    where: { id, status: { in: ["dead", "pending"] } },
    data: { status: "pending", attempts: 0, nextAttemptAt: now, leaseOwner: null, leaseExpiresAt: null },
  });
  return done.count === 1;
}

export function listDeliveries(prisma: Db, options: { limit: number; status?: string; channelId?: string }) {
  return prisma.alertDelivery.findMany({
    where: {
      ...(options.status ? { status: options.status } : {}),
      ...(options.channelId ? { channelId: options.channelId } : {}),
    },
    orderBy: { createdAt: "desc" },
    take: options.limit,
    select: {
      id: true,
      channelId: true,
      eventId: true,
      loopId: true,
      kind: true,
      status: true,
      attempts: true,
      nextAttemptAt: true,
      lastStatus: true,
      lastError: true,
      createdAt: true,
      deliveredAt: true,
      channel: { select: { name: true, kind: true } },
    },
  });
}

export const listChannels = (prisma: Db) => prisma.alertChannel.findMany({ orderBy: { createdAt: "asc" } });
export const channelById = (prisma: Db, id: string) => prisma.alertChannel.findUnique({ where: { id } });

export function insertChannel(
  prisma: Db,
  row: Omit<ChannelRow, "createdAt" | "updatedAt" | "enabled" | "loopIds"> & {
    loopIds?: string;
    createdById: string | null;
  },
) {
  return prisma.alertChannel.create({ data: row });
}

export async function updateChannel(
  prisma: Db,
  id: string,
  change: { events?: string; loopIds?: string; enabled?: boolean },
) {
  const done = await prisma.alertChannel.updateMany({ where: { id }, data: change });
  return done.count === 1;
}

export async function deleteChannel(prisma: Db, id: string) {
  const done = await prisma.alertChannel.deleteMany({ where: { id } });
  return done.count === 1;
}

export function upsertMute(
  prisma: Db,
  row: { id: string; loopId: string; kind: string; until: Date | null; createdById: string | null },
) {
  return prisma.alertMute.upsert({
    where: { loopId_kind: { loopId: row.loopId, kind: row.kind } },
    create: row,
    update: { until: row.until, createdById: row.createdById },
  });
}

export async function deleteMute(prisma: Db, loopId: string, kind: string) {
  await prisma.alertMute.deleteMany({ where: { loopId, kind } });
}

export const listMutes = (prisma: Db, loopId: string) =>
  prisma.alertMute.findMany({ where: { loopId }, orderBy: { kind: "asc" } });

/** The loop facts an alert message states in one line. */
export const loopForAlert = (prisma: Db, id: string) =>
  prisma.loop.findUnique({
    where: { id },
    select: {
      id: true,
      name: true,
      goal: true,
      status: true,
      stopType: true,
      stopReason: true,
      health: true,
      iteration: true,
      maxIterations: true,
      costUsd: true,
      budgetUsd: true,
      bestScore: true,
    },
  });

export const eventForAlert = (prisma: Db, id: number) =>
  prisma.loopEvent.findUnique({
    where: { id },
    select: { id: true, type: true, reason: true, actor: true, payload: true, createdAt: true },
  });

/** Loops the alarm check judges (working ones), with the alarms raised for each within the quiet period. */
export async function alarmCandidates(prisma: Db, input: { quietSince: Date }) {
  const loops = await prisma.loop.findMany({
    where: { status: { in: ["running", "queued", "waiting", "interrupting"] } },
    select: { id: true, status: true, health: true, config: true, inflightIteration: true, inflightStartedAt: true },
    take: 1000,
  });
  if (loops.length === 0) return [];
  const changes = await prisma.loopEvent.findMany({
    where: {
      type: { in: ["alarm_raised", "alarm_cleared"] },
      loopId: { in: loops.map((l) => l.id) },
      createdAt: { gte: input.quietSince },
    },
    select: { loopId: true, type: true, payload: true },
    orderBy: { id: "asc" },
  });
  return loops.map((l) => {
    const raisedRecently: string[] = [];
    // The last change written per kind says whether open pages were last told it is raised.
    const lastWritten = new Map<string, boolean>();
    for (const e of changes) {
      if (e.loopId !== l.id) continue;
      const kind = String((e.payload as { alarm?: unknown } | null)?.alarm ?? "");
      if (e.type === "alarm_raised") raisedRecently.push(kind);
      lastWritten.set(kind, e.type === "alarm_raised");
    }
    const shownRaised = [...lastWritten].filter(([, raised]) => raised).map(([kind]) => kind);
    return { ...l, raisedRecently, shownRaised };
  });
}

/** An approval gate's deadline and what happens then, for the "approval" alert. */
export const approvalForAlert = (prisma: Db, id: string) =>
  prisma.approval.findUnique({ where: { id }, select: { deadlineAt: true, defaultAction: true, gate: true } });

// Settings → Alerts: channels (admins), the delivery log with "send test"
// and "retry", and per-loop mutes and snoozes (operators). Every change is an
// audit event naming who made it.
import { checkOutboundUrl } from "../agents/ssrf-guard";
import { AgentError } from "../agents/agent-error";
import { ALERT_KINDS, asDeliveryStatus, type AlertKind, type DeliveryStatus } from "../alert-kinds";
import type { Database } from "../db/client";
import {
  channelById,
  deleteChannel,
  deleteMute,
  eventsOf,
  insertChannel,
  loopIdsOf,
  insertTestDelivery,
  listChannels,
  listDeliveries,
  listMutes,
  retryDelivery,
  updateChannel,
  upsertMute,
} from "../db/alerts.repo";
import { appendEvents } from "../db/events.repo";
import { loopById } from "../db/loops.repo";
import { conflict, invalidInput, notFound } from "../errors";
import { sealSecret, type SecretKey } from "../secrets/secret-box";
import { channelSecretRowId, channelUrlRowId } from "./alert-delivery.service";
import { newSigningSecret } from "./alert-signing";

export const CHANNEL_KINDS = ["webhook", "slack", "discord"] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

interface Acting {
  id: string | null;
  name: string;
}

const audit = (db: Database, actor: Acting, type: string, reason: string, payload: object) =>
  appendEvents(db.prisma, [{ loopId: null, type, actorId: actor.id, actor: actor.name, reason, payload }]);

const publicChannel = (row: Awaited<ReturnType<typeof listChannels>>[number]) => ({
  id: row.id,
  name: row.name,
  kind: row.kind as ChannelKind,
  host: row.urlHost,
  // A kind this version no longer knows is dropped, not passed on as a lie.
  events: eventsOf(row).filter((k): k is AlertKind => (ALERT_KINDS as readonly string[]).includes(k)),
  /** Empty: every loop. */
  loopIds: loopIdsOf(row),
  enabled: row.enabled,
  createdAt: row.createdAt,
});

export const alertChannels = async (db: Database) => (await listChannels(db.prisma)).map(publicChannel);

export async function createAlertChannel(
  db: Database,
  key: SecretKey,
  input: { name: string; kind: ChannelKind; url: string; events: AlertKind[]; loopIds?: string[] },
  deps: { actor: Acting; newId: () => string; allowHosts: readonly string[] },
) {
  let url: URL;
  try {
    // The same SSRF guard as every other outbound call: checked now, and again at each connect.
    url = checkOutboundUrl(input.url, deps.allowHosts);
  } catch (error) {
    throw invalidInput(error instanceof AgentError ? error.message : "Invalid URL");
  }
  const id = deps.newId();
  const signingSecret = newSigningSecret();
  try {
    const row = await insertChannel(db.prisma, {
      id,
      name: input.name,
      kind: input.kind,
      urlCiphertext: sealSecret(key, channelUrlRowId(id), url.href),
      urlHost: url.host,
      secretCiphertext: sealSecret(key, channelSecretRowId(id), signingSecret),
      events: [...new Set(input.events)].join(","),
      loopIds: [...new Set(input.loopIds ?? [])].join(","),
      createdById: deps.actor.id,
    });
    await audit(db, deps.actor, "alert_channel_created", `alert channel "${input.name}" created`, {
      channelId: id,
      kind: input.kind,
      host: url.host,
      events: input.events,
    });
    // The signing secret is shown once, here; receivers verify X-Ralph-Signature with it.
    return { channel: publicChannel(row), signingSecret };
  } catch (error) {
    if ((error as { code?: string }).code === "P2002") throw conflict(`An alert channel named "${input.name}" exists`);
    throw error;
  }
}

export async function updateAlertChannel(
  db: Database,
  id: string,
  change: { events?: AlertKind[]; loopIds?: string[]; enabled?: boolean },
  actor: Acting,
) {
  const ok = await updateChannel(db.prisma, id, {
    events: change.events ? [...new Set(change.events)].join(",") : undefined,
    loopIds: change.loopIds ? [...new Set(change.loopIds)].join(",") : undefined,
    enabled: change.enabled,
  });
  if (!ok) throw notFound("Alert channel", id);
  await audit(db, actor, "alert_channel_updated", "alert channel changed", { channelId: id, ...change });
  return { ok: true as const };
}

export async function deleteAlertChannel(db: Database, id: string, actor: Acting) {
  const row = await channelById(db.prisma, id);
  if (!row || !(await deleteChannel(db.prisma, id))) throw notFound("Alert channel", id);
  await audit(db, actor, "alert_channel_deleted", `alert channel "${row.name}" deleted`, { channelId: id });
  return { ok: true as const };
}

/** Queues a test message for one channel (delivered like any alert, and logged). */
export async function sendTestAlert(db: Database, channelId: string, deps: { newId: () => string; now: number }) {
  if (!(await channelById(db.prisma, channelId))) throw notFound("Alert channel", channelId);
  return insertTestDelivery(db.prisma, { id: `test-${deps.newId()}`, channelId, now: new Date(deps.now) });
}

export const deliveryLog = async (
  db: Database,
  options: { limit: number; status?: DeliveryStatus; channelId?: string },
) => (await listDeliveries(db.prisma, options)).map((row) => ({ ...row, status: asDeliveryStatus(row.status) }));

export async function retryDeadDelivery(db: Database, id: string, now: number) {
  if (!(await retryDelivery(db.prisma, id, new Date(now)))) throw notFound("Pending or dead delivery", id);
  return { ok: true as const };
}

/** Mutes one alert kind ("*": all) for one loop, for `minutes` (a snooze) or until unmuted. */
export async function muteLoopAlert(
  db: Database,
  input: { loopId: string; kind: AlertKind | "*"; minutes: number | null },
  deps: { actor: Acting; newId: () => string; now: number },
) {
  if (input.kind !== "*" && !ALERT_KINDS.includes(input.kind)) throw invalidInput(`Unknown alert kind ${input.kind}`);
  const until = input.minutes ? new Date(deps.now + input.minutes * 60_000) : null;
  try {
    await upsertMute(db.prisma, {
      id: deps.newId(),
      loopId: input.loopId,
      kind: input.kind,
      until,
      createdById: deps.actor.id,
    });
  } catch (error) {
    if ((error as { code?: string }).code === "P2003") throw notFound("Loop", input.loopId);
    throw error;
  }
  await appendEvents(db.prisma, [
    {
      loopId: input.loopId,
      type: "alert_muted",
      actorId: deps.actor.id,
      actor: deps.actor.name,
      reason: until ? `${input.kind} alerts snoozed until ${until.toISOString()}` : `${input.kind} alerts muted`,
      payload: { kind: input.kind, until: until?.toISOString() ?? null },
    },
  ]);
  return { ok: true as const, until };
}

export async function unmuteLoopAlert(db: Database, loopId: string, kind: string, actor: Acting) {
  // An unknown loop is a 404, not the event's foreign-key failure (a 500 the fuzzer found, issue 32).
  if (!(await loopById(db.prisma, loopId))) throw notFound("Loop", loopId);
  await deleteMute(db.prisma, loopId, kind);
  await appendEvents(db.prisma, [
    {
      loopId,
      type: "alert_unmuted",
      actorId: actor.id,
      actor: actor.name,
      reason: `${kind} alerts unmuted`,
      payload: { kind },
    },
  ]);
  return { ok: true as const };
}

export const loopAlertMutes = (db: Database, loopId: string) => listMutes(db.prisma, loopId);

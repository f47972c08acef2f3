// The operator's side of notices: the inbox (notices grouped per loop, a
// loop's notices archived once it has ended), their own per-loop and
// per-class mutes, and their browsers' push subscriptions. A subscription is
// an alert channel of kind "webpush" owned by its user, so the one outbox,
// deliverer, retry policy and delivery log serve it (alert-delivery.service.ts).
import { createHash } from "node:crypto";
import { checkOutboundUrl } from "../agents/ssrf-guard";
import { AgentError } from "../agents/agent-error";
import { ALERT_KINDS, noticeClassOf, noticeExcerpt, noticePath, type NoticeClass } from "../alert-kinds";
import type { Database } from "../db/client";
import { insertChannel, PUSH_CHANNEL_KIND } from "../db/alerts.repo";
import { appendEvents } from "../db/events.repo";
import {
  addNoticeMute,
  deleteNoticeMute,
  deletePushChannelByName,
  listNoticeMutes,
  pushChannelsOf,
  recentNoticeEvents,
} from "../db/notices.repo";
import { invalidInput } from "../errors";
import { isTerminal } from "../loops/control-rules";
import { sealSecret, type SecretKey } from "../secrets/secret-box";
import { channelSecretRowId, channelUrlRowId } from "./alert-delivery.service";
import type { PushKeys } from "./push-notice";

interface Acting {
  id: string;
  name: string;
}

/** The inbox: the latest notices, one group per loop, open loops first. */
export async function inbox(db: Database, limit = 200) {
  const groups = new Map<
    string,
    { loopId: string; loopName: string; loopStatus: string; archived: boolean; notices: Notice[] }
  >();
  for (const e of await recentNoticeEvents(db.prisma, limit)) {
    const cls = noticeClassOf(e);
    if (!cls || !e.loop) continue;
    const group = groups.get(e.loop.id) ?? {
      loopId: e.loop.id,
      loopName: e.loop.name || `Loop ${e.loop.id.slice(0, 8)}`,
      loopStatus: e.loop.status,
      // A loop that ended has nothing left to answer: its notices move to the archive.
      archived: isTerminal(e.loop.status),
      notices: [],
    };
    group.notices.push({
      id: e.id,
      class: cls,
      excerpt: noticeExcerpt(e),
      url: noticePath(cls, e.loop.id),
      at: e.createdAt,
    });
    groups.set(e.loop.id, group);
  }
  const all = [...groups.values()];
  return { open: all.filter((g) => !g.archived), archived: all.filter((g) => g.archived) };
}

interface Notice {
  id: number;
  class: NoticeClass;
  excerpt: string;
  url: string;
  at: Date;
}

export async function noticeMutes(db: Database, userId: string) {
  return (await listNoticeMutes(db.prisma, userId)).map((m) => ({
    loopId: m.loopId === "" ? null : m.loopId,
    class: m.noticeClass as NoticeClass | "*",
  }));
}

/** Mutes (or unmutes) one class ("*": every class) for one loop (null: every loop), for this user only. */
export async function setNoticeMute(
  db: Database,
  user: Acting,
  input: { loopId: string | null; class: NoticeClass | "*"; muted: boolean },
) {
  const row = { userId: user.id, loopId: input.loopId ?? "", noticeClass: input.class };
  if (input.muted) await addNoticeMute(db.prisma, row);
  else await deleteNoticeMute(db.prisma, row);
  return { ok: true as const };
}

/** One channel per browser subscription, named by its endpoint's hash so subscribing again replaces it. */
const subscriptionName = (userId: string, endpoint: string) =>
  `push ${userId} ${createHash("sha256").update(endpoint).digest("hex").slice(0, 16)}`;

export async function subscribePush(
  db: Database,
  key: SecretKey,
  user: Acting,
  input: { endpoint: string; keys: PushKeys },
  deps: { newId: () => string; allowHosts: readonly string[] },
) {
  let url: URL;
  try {
    url = checkOutboundUrl(input.endpoint, deps.allowHosts);
  } catch (error) {
    throw invalidInput(error instanceof AgentError ? error.message : "Invalid push endpoint");
  }
  const name = subscriptionName(user.id, url.href);
  await deletePushChannelByName(db.prisma, user.id, name);
  const id = deps.newId();
  await insertChannel(db.prisma, {
    id,
    name,
    kind: PUSH_CHANNEL_KIND,
    urlCiphertext: sealSecret(key, channelUrlRowId(id), url.href),
    urlHost: url.host,
    // The browser's keys take the place of a webhook's signing secret: sealed the same way.
    secretCiphertext: sealSecret(key, channelSecretRowId(id), JSON.stringify(input.keys)),
    events: ALERT_KINDS.join(","),
    createdById: user.id,
  });
  await appendEvents(db.prisma, [
    {
      loopId: null,
      type: "push_subscribed",
      actorId: user.id,
      actor: user.name,
      reason: `push notices to ${url.host}`,
      payload: { channelId: id, host: url.host },
    },
  ]);
  return { id };
}

export async function unsubscribePush(db: Database, user: Acting, endpoint: string) {
  const removed = await deletePushChannelByName(db.prisma, user.id, subscriptionName(user.id, endpoint));
  return { ok: true as const, removed };
}

export async function pushSubscriptions(db: Database, userId: string) {
  return (await pushChannelsOf(db.prisma, userId)).map((c) => ({ id: c.id, host: c.urlHost, createdAt: c.createdAt }));
}

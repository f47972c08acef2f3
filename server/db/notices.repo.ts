// Notices as the inbox reads them (the alertable events, newest first, with
// their loop's name and status), users' own notice mutes, and browsers' push
// subscriptions (alert channels of kind "webpush" owned by their user).
import { ALERTABLE_EVENT_TYPES } from "../alert-kinds";
import { PUSH_CHANNEL_KIND } from "./alerts.repo";
import type { Db } from "./prisma-client";

export function recentNoticeEvents(prisma: Db, limit: number) {
  return prisma.loopEvent.findMany({
    where: { type: { in: [...ALERTABLE_EVENT_TYPES] }, loopId: { not: null } },
    orderBy: { id: "desc" },
    take: limit,
    select: {
      id: true,
      type: true,
      reason: true,
      payload: true,
      createdAt: true,
      loop: { select: { id: true, name: true, status: true } },
    },
  });
}

export const listNoticeMutes = (prisma: Db, userId: string) =>
  prisma.noticeMute.findMany({
    where: { userId },
    orderBy: { createdAt: "asc" },
    select: { loopId: true, noticeClass: true, createdAt: true },
  });

export async function addNoticeMute(prisma: Db, row: { userId: string; loopId: string; noticeClass: string }) {
  await prisma.noticeMute.upsert({ where: { userId_loopId_noticeClass: row }, create: row, update: {} });
}

export async function deleteNoticeMute(prisma: Db, row: { userId: string; loopId: string; noticeClass: string }) {
  const done = await prisma.noticeMute.deleteMany({ where: row });
  return done.count > 0;
}

export const pushChannelsOf = (prisma: Db, userId: string) =>
  prisma.alertChannel.findMany({
    where: { kind: PUSH_CHANNEL_KIND, createdById: userId },
    select: { id: true, name: true, urlHost: true, createdAt: true },
  });

export async function deletePushChannelByName(prisma: Db, userId: string, name: string) {
  const done = await prisma.alertChannel.deleteMany({ where: { kind: PUSH_CHANNEL_KIND, createdById: userId, name } });
  return done.count > 0;
}

// Share links: stored by token hash only.
import type { Db } from "./prisma-client";

export interface ShareLinkRow {
  id: string;
  loopId: string;
  createdById: string | null;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastAccessedAt: Date | null;
}

const PUBLIC_FIELDS = {
  id: true,
  loopId: true,
  createdById: true,
  createdAt: true,
  expiresAt: true,
  revokedAt: true,
  lastAccessedAt: true,
} as const;

export async function insertShareLink(
  prisma: Db,
  row: { id: string; loopId: string; tokenHash: string; createdById: string | null; expiresAt: Date | null },
) {
  return prisma.shareLink.create({ data: row, select: PUBLIC_FIELDS });
}

export async function shareLinksOfLoop(prisma: Db, loopId: string): Promise<ShareLinkRow[]> {
  return prisma.shareLink.findMany({ where: { loopId }, orderBy: { createdAt: "desc" }, select: PUBLIC_FIELDS });
}

export async function shareLinkByHash(prisma: Db, tokenHash: string): Promise<ShareLinkRow | null> {
  return prisma.shareLink.findUnique({ where: { tokenHash }, select: PUBLIC_FIELDS });
}

/** Revokes once; a second call leaves the first revocation time. Returns whether the link exists. */
export async function revokeShareLink(prisma: Db, id: string, at: Date): Promise<boolean> {
  const done = await prisma.shareLink.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: at } });
  if (done.count === 1) return true;
  return (await prisma.shareLink.count({ where: { id } })) === 1;
}

export async function touchShareLink(prisma: Db, id: string, at: Date) {
  await prisma.shareLink.updateMany({ where: { id }, data: { lastAccessedAt: at } });
}

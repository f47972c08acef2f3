// Sign-in sessions, found by the SHA-256 of their cookie token.
import type { Db } from "./prisma-client";

export interface SessionWithUser {
  id: string;
  userId: string;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  user: { id: string; email: string; name: string; role: string; disabledAt: Date | null };
}

export function insertSession(
  prisma: Db,
  row: {
    id: string;
    tokenHash: string;
    userId: string;
    createdAt: Date;
    expiresAt: Date;
    ip: string | null;
    userAgent: string | null;
  },
) {
  return prisma.session.create({ data: { ...row, lastSeenAt: row.createdAt }, select: { id: true } });
}

export function sessionByHash(prisma: Db, tokenHash: string): Promise<SessionWithUser | null> {
  return prisma.session.findUnique({
    where: { tokenHash },
    select: {
      id: true,
      userId: true,
      createdAt: true,
      lastSeenAt: true,
      expiresAt: true,
      revokedAt: true,
      user: { select: { id: true, email: true, name: true, role: true, disabledAt: true } },
    },
  });
}

export async function touchSession(prisma: Db, id: string, at: Date) {
  await prisma.session.updateMany({ where: { id, revokedAt: null }, data: { lastSeenAt: at } });
}

export async function revokeSession(prisma: Db, id: string, at: Date) {
  await prisma.session.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: at } });
}

/** Ends every live session of a user except `keepId` (password change, disable, role change). */
export async function revokeUserSessions(prisma: Db, userId: string, at: Date, keepId?: string): Promise<number> {
  const done = await prisma.session.updateMany({
    where: { userId, revokedAt: null, ...(keepId ? { id: { not: keepId } } : {}) },
    data: { revokedAt: at },
  });
  return done.count;
}

/** Housekeeping: forgets sessions that ended before `before`. */
export async function pruneSessions(prisma: Db, before: Date): Promise<number> {
  const done = await prisma.session.deleteMany({
    where: { OR: [{ expiresAt: { lt: before } }, { revokedAt: { lt: before } }] },
  });
  return done.count;
}

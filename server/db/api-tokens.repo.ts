// Personal API tokens, found by the SHA-256 of the bearer value.
import type { Db } from "./prisma-client";
import type { Tx } from "./tx";

export interface ApiTokenRow {
  id: string;
  userId: string;
  name: string;
  prefix: string;
  role: string;
  createdAt: Date;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export interface ApiTokenWithUser extends ApiTokenRow {
  user: { id: string; email: string; name: string; role: string; disabledAt: Date | null };
}

const PUBLIC = {
  id: true,
  userId: true,
  name: true,
  prefix: true,
  role: true,
  createdAt: true,
  expiresAt: true,
  lastUsedAt: true,
  revokedAt: true,
} as const;

export function insertApiToken(
  tx: Tx | Db,
  row: {
    id: string;
    userId: string;
    name: string;
    tokenHash: string;
    prefix: string;
    role: string;
    createdAt: Date;
    expiresAt: Date | null;
  },
): Promise<ApiTokenRow> {
  return tx.apiToken.create({ data: row, select: PUBLIC });
}

export function apiTokenByHash(prisma: Db, tokenHash: string): Promise<ApiTokenWithUser | null> {
  return prisma.apiToken.findUnique({
    where: { tokenHash },
    select: { ...PUBLIC, user: { select: { id: true, email: true, name: true, role: true, disabledAt: true } } },
  });
}

export function apiTokenById(tx: Tx | Db, id: string): Promise<ApiTokenRow | null> {
  return tx.apiToken.findUnique({ where: { id }, select: PUBLIC });
}

/** Newest first; `userId` null lists everyone's (admins). */
export function listApiTokens(prisma: Db, userId: string | null): Promise<(ApiTokenRow & { ownerEmail: string })[]> {
  return prisma.apiToken
    .findMany({
      where: userId ? { userId } : {},
      orderBy: { createdAt: "desc" },
      select: { ...PUBLIC, user: { select: { email: true } } },
      take: 500,
    })
    .then((rows) => rows.map(({ user, ...row }) => ({ ...row, ownerEmail: user.email })));
}

/** Only the first revocation counts: returns false when it was already revoked. */
export async function revokeApiToken(tx: Tx | Db, id: string, at: Date): Promise<boolean> {
  const done = await tx.apiToken.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: at } });
  return done.count === 1;
}

export async function touchApiToken(prisma: Db, id: string, at: Date) {
  await prisma.apiToken.updateMany({ where: { id, revokedAt: null }, data: { lastUsedAt: at } });
}

// Stored secrets. Listing never selects the ciphertext; only `sealedSecret`
// returns it, for the resolver that decrypts for an executor.
import type { Db } from "./prisma-client";

const LISTED = {
  id: true,
  name: true,
  kind: true,
  last4: true,
  allowedRoles: true,
  allowedKinds: true,
  allowedHosts: true,
  createdAt: true,
  updatedAt: true,
} as const;
const SCOPE = { id: true, name: true, allowedRoles: true, allowedKinds: true, allowedHosts: true } as const;

export function listSecretRows(prisma: Db) {
  return prisma.secret.findMany({ orderBy: { name: "asc" }, select: LISTED });
}

export function secretIdByName(prisma: Db, name: string) {
  return prisma.secret.findUnique({ where: { name }, select: { id: true } });
}

/** By id, else by name: loop configs may reference either (the scope applies either way). */
export async function secretScopeRow(prisma: Db, idOrName: string) {
  return (
    (await prisma.secret.findUnique({ where: { id: idOrName }, select: SCOPE })) ??
    prisma.secret.findUnique({ where: { name: idOrName }, select: SCOPE })
  );
}

/** By id, else by name: loop configs may reference either. */
export async function sealedSecret(prisma: Db, idOrName: string) {
  const select = { ...SCOPE, ciphertext: true } as const;
  return (
    (await prisma.secret.findUnique({ where: { id: idOrName }, select })) ??
    prisma.secret.findUnique({ where: { name: idOrName }, select })
  );
}

type ScopeColumns = { allowedRoles: string; allowedKinds: string; allowedHosts: string };

export function writeSecretRow(
  prisma: Db,
  row: {
    id: string;
    name: string;
    kind: string;
    ciphertext: string;
    last4: string;
    updatedById: string | null;
  } & Partial<ScopeColumns>,
  exists: boolean,
) {
  const { id, name: _name, ...rest } = row;
  return exists
    ? prisma.secret.update({ where: { id }, data: rest, select: LISTED })
    : prisma.secret.create({ data: row, select: LISTED });
}

/** Changes who may use a secret without touching its value. */
export async function writeSecretScope(prisma: Db, id: string, scope: ScopeColumns & { updatedById: string | null }) {
  const updated = await prisma.secret.updateMany({ where: { id }, data: scope });
  return updated.count === 1 ? prisma.secret.findUnique({ where: { id }, select: LISTED }) : null;
}

export async function deleteSecretRow(prisma: Db, id: string): Promise<boolean> {
  return (await prisma.secret.deleteMany({ where: { id } })).count === 1;
}

// Stored secrets. Listing never selects the ciphertext; only `sealedSecret`
// returns it, for the resolver that decrypts for an executor.
import type { Db } from "./client";

const LISTED = { id: true, name: true, kind: true, last4: true, createdAt: true, updatedAt: true } as const;

export function listSecretRows(prisma: Db) {
  return prisma.secret.findMany({ orderBy: { name: "asc" }, select: LISTED });
}

export function secretIdByName(prisma: Db, name: string) {
  return prisma.secret.findUnique({ where: { name }, select: { id: true } });
}

/** By id, else by name: loop configs may reference either. */
export async function sealedSecret(prisma: Db, idOrName: string) {
  const select = { id: true, ciphertext: true } as const;
  return (await prisma.secret.findUnique({ where: { id: idOrName }, select })) ?? prisma.secret.findUnique({ where: { name: idOrName }, select });
}

export function writeSecretRow(prisma: Db, row: { id: string; name: string; kind: string; ciphertext: string; last4: string; updatedById: string | null }, exists: boolean) {
  const { id, ...rest } = row;
  return exists
    ? prisma.secret.update({ where: { id }, data: { kind: rest.kind, ciphertext: rest.ciphertext, last4: rest.last4, updatedById: rest.updatedById }, select: LISTED })
    : prisma.secret.create({ data: row, select: LISTED });
}

export async function deleteSecretRow(prisma: Db, id: string): Promise<boolean> {
  return (await prisma.secret.deleteMany({ where: { id } })).count === 1;
}

// Accounts. The password hash never leaves this module except through
// `credentialsByEmail`, which only the sign-in service calls.
import type { Db } from "./prisma-client";

export interface UserRow {
  id: string;
  email: string;
  name: string;
  role: string;
  createdAt: Date;
  disabledAt: Date | null;
}

const PUBLIC = { id: true, email: true, name: true, role: true, createdAt: true, disabledAt: true } as const;

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export function countUsers(prisma: Db, where: { role?: string; active?: boolean } = {}) {
  return prisma.user.count({
    where: { ...(where.role ? { role: where.role } : {}), ...(where.active ? { disabledAt: null } : {}) },
  });
}

export function listUsers(prisma: Db): Promise<UserRow[]> {
  return prisma.user.findMany({ orderBy: { createdAt: "asc" }, select: PUBLIC });
}

/** Names (and emails) of the given users, for labels such as the audit log's "who". */
export function userNamesByIds(prisma: Db, ids: string[]) {
  return prisma.user.findMany({ where: { id: { in: ids } }, select: { id: true, name: true, email: true } });
}

export function userById(prisma: Db, id: string): Promise<UserRow | null> {
  return prisma.user.findUnique({ where: { id }, select: PUBLIC });
}

export function credentialsByEmail(prisma: Db, email: string) {
  return prisma.user.findUnique({ where: { email: normalizeEmail(email) }, select: { ...PUBLIC, passwordHash: true } });
}

export function passwordHashOf(prisma: Db, id: string) {
  return prisma.user.findUnique({ where: { id }, select: { passwordHash: true } });
}

export function insertUser(
  prisma: Db,
  row: { id: string; email: string; name: string; role: string; passwordHash: string },
): Promise<UserRow> {
  return prisma.user.create({ data: { ...row, email: normalizeEmail(row.email) }, select: PUBLIC });
}

export function updateUser(
  prisma: Db,
  id: string,
  data: { role?: string; name?: string; disabledAt?: Date | null; passwordHash?: string },
): Promise<UserRow> {
  return prisma.user.update({ where: { id }, data, select: PUBLIC });
}

/**
 * Creates the first user only while there is none. Serializable on
 * PostgreSQL (SQLite serializes writers anyway), so two concurrent setups
 * cannot both succeed: the loser gets null.
 */
export async function insertFirstUser(
  prisma: Db,
  row: { id: string; email: string; name: string; role: string; passwordHash: string },
): Promise<UserRow | null> {
  try {
    return await prisma.$transaction(
      async (tx) => {
        if ((await tx.user.count()) > 0) return null;
        return tx.user.create({ data: { ...row, email: normalizeEmail(row.email) }, select: PUBLIC });
      },
      { isolationLevel: "Serializable" },
    );
  } catch (error) {
    // A serialization failure or unique violation (the driver adapters report
    // these with varying codes): if someone else's setup committed, ours lost.
    if ((await prisma.user.count()) > 0) return null;
    throw error;
  }
}

/** Creates or repairs the start-up admin (RALPH_ADMIN_*): admin role, enabled, given password. */
export async function upsertAdmin(prisma: Db, row: { id: string; email: string; passwordHash: string }) {
  const email = normalizeEmail(row.email);
  return prisma.user.upsert({
    where: { email },
    create: { id: row.id, email, name: "Admin", role: "admin", passwordHash: row.passwordHash },
    update: { role: "admin", disabledAt: null, passwordHash: row.passwordHash },
    select: PUBLIC,
  });
}

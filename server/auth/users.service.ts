// Account management: admins create users, change roles, disable accounts and
// reset passwords; everyone changes their own password. Changes that reduce
// access end the affected sessions at once.
import type { Database } from "../db/client";
import { revokeUserSessions } from "../db/sessions.repo";
import {
  countUsers,
  insertUser,
  listUsers,
  passwordHashOf,
  updateUser,
  userById,
  type UserRow,
} from "../db/users.repo";
import { conflict, invalidInput, notFound } from "../errors";
import type { Actor, Role } from "./actor";
import { hashPassword, passwordProblem, verifyPassword } from "./password";
import { enforceLimit, hit } from "./rate-limit";
import { signInLimits } from "./sign-in.service";

export type PublicUser = UserRow;

function checkPassword(password: string) {
  const problem = passwordProblem(password);
  if (problem) throw invalidInput(problem);
}

export const listAccounts = (db: Database) => listUsers(db.prisma);

export async function createAccount(
  db: Database,
  input: { email: string; name?: string; role: Role; password: string },
  newId: () => string,
): Promise<PublicUser> {
  checkPassword(input.password);
  return insertUser(db.prisma, {
    id: newId(),
    email: input.email,
    name: input.name?.trim() ?? "",
    role: input.role,
    passwordHash: await hashPassword(input.password),
  });
}

/** Refuses to leave the system without an active admin. */
async function keepOneAdmin(db: Database, user: UserRow, change: { role?: Role; disabled?: boolean }) {
  const losesAdmin =
    user.role === "admin" && !user.disabledAt && ((change.role && change.role !== "admin") || change.disabled);
  if (losesAdmin && (await countUsers(db.prisma, { role: "admin", active: true })) <= 1) {
    throw conflict("This is the last active admin; make another admin first");
  }
}

export async function updateAccount(
  db: Database,
  acting: Actor,
  id: string,
  change: { role?: Role; disabled?: boolean; name?: string },
  now: number,
) {
  const user = await userById(db.prisma, id);
  if (!user) throw notFound("User", id);
  if (acting.id === id && (change.disabled || (change.role && change.role !== user.role))) {
    throw invalidInput("You cannot disable yourself or change your own role");
  }
  await keepOneAdmin(db, user, change);
  const updated = await updateUser(db.prisma, id, {
    role: change.role,
    name: change.name?.trim(),
    disabledAt: change.disabled === undefined ? undefined : change.disabled ? (user.disabledAt ?? new Date(now)) : null,
  });
  // A disabled user or a changed role: their open sessions end now (the role is re-read per request anyway).
  if (change.disabled) await revokeUserSessions(db.prisma, id, new Date(now));
  return updated;
}

/** An admin sets a new password for someone else: all their sessions end. */
export async function resetPassword(db: Database, id: string, password: string, now: number) {
  checkPassword(password);
  if (!(await userById(db.prisma, id))) throw notFound("User", id);
  await updateUser(db.prisma, id, { passwordHash: await hashPassword(password) });
  await revokeUserSessions(db.prisma, id, new Date(now));
}

/** The signed-in user changes their own password; their other sessions end, this one stays. */
export async function changeOwnPassword(
  db: Database,
  input: { userId: string; email: string; sessionId: string | null; current: string; next: string; now: number },
) {
  checkPassword(input.next);
  // Guesses at the current password count against the account like failed sign-ins.
  const limit = signInLimits().account;
  await enforceLimit(db, limit, input.email, input.now, "Too many wrong passwords for this account.");
  const row = await passwordHashOf(db.prisma, input.userId);
  if (!row || !(await verifyPassword(input.current, row.passwordHash))) {
    await hit(db, limit, input.email, input.now);
    throw invalidInput("The current password is incorrect");
  }
  await updateUser(db.prisma, input.userId, { passwordHash: await hashPassword(input.next) });
  return {
    endedSessions: await revokeUserSessions(db.prisma, input.userId, new Date(input.now), input.sessionId ?? undefined),
  };
}

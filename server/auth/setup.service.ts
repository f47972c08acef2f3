// First run: the one-time setup page (loopback only, while no user exists)
// and the start-up admin from RALPH_ADMIN_EMAIL / RALPH_ADMIN_PASSWORD.
import type { Database } from "../db/client";
import { revokeUserSessions } from "../db/sessions.repo";
import { countUsers, credentialsByEmail, insertFirstUser, upsertAdmin } from "../db/users.repo";
import { conflict, forbidden, invalidInput } from "../errors";
import { localRequestProblem } from "./local-request";
import { hashPassword, passwordProblem, verifyPassword } from "./password";

export async function setupStatus(db: Database, headers: Headers) {
  const needed = (await countUsers(db.prisma)) === 0;
  const problem = needed ? localRequestProblem(headers) : null;
  return { needed, allowedHere: needed && !problem, problem };
}

export async function createFirstAdmin(
  db: Database,
  headers: Headers,
  input: { email: string; name?: string; password: string },
  newId: () => string,
) {
  const problem = localRequestProblem(headers);
  if (problem) throw forbidden(problem);
  const weak = passwordProblem(input.password);
  if (weak) throw invalidInput(weak);
  const user = await insertFirstUser(db.prisma, {
    id: newId(),
    email: input.email,
    name: input.name?.trim() ?? "",
    role: "admin",
    passwordHash: await hashPassword(input.password),
  });
  if (!user) throw conflict("Setup is already done; sign in instead");
  return user;
}

/**
 * Makes sure the configured admin exists, is an enabled admin and has the
 * configured password (so an operator locked out can recover by setting the
 * variables and restarting). A changed password ends that admin's sessions.
 */
export async function ensureEnvAdmin(db: Database, email: string, password: string, now: number, newId: () => string) {
  const existing = await credentialsByEmail(db.prisma, email);
  const samePassword = existing ? await verifyPassword(password, existing.passwordHash) : false;
  if (existing && samePassword && existing.role === "admin" && !existing.disabledAt)
    return { created: false, changed: false };
  const user = await upsertAdmin(db.prisma, {
    id: newId(),
    email,
    passwordHash: samePassword ? existing!.passwordHash! : await hashPassword(password),
  });
  if (existing && !samePassword) await revokeUserSessions(db.prisma, user.id, new Date(now));
  return { created: !existing, changed: true };
}

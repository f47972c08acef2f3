// Accounts and signed-in contexts for auth tests: real users in the test
// database, real sessions, and tRPC callers acting as them.
import { randomUUID } from "node:crypto";
import type { Actor, Role } from "../server/auth/actor";
import { createContext } from "../server/api/context";
import { createCaller } from "../server/api/root";
import { createAccount } from "../server/auth/users.service";
import type { Database } from "../server/db/client";
import { servicesWithoutJobs } from "./trpc-http-server";

export const TEST_PASSWORD = "test-password-1234";

let counter = 0;
export const uniqueEmail = (role: string) => `${role}-${Date.now().toString(36)}-${++counter}@ralph.test`;

export async function createUser(db: Database, role: Role, password = TEST_PASSWORD) {
  const user = await createAccount(db, { email: uniqueEmail(role), role, password, name: `${role} user` }, randomUUID);
  return { ...user, password, actor: { id: user.id, email: user.email, name: user.name, role } satisfies Actor };
}

/** A tRPC caller acting as `actor` (null: anonymous), as an HTTP request with that session would. */
export const callerAs = (db: Database, actor: Actor | null) =>
  createCaller(createContext({ services: servicesWithoutJobs(db), actor }));

/**
 * Email + password sign-in with brute-force limits per account and per client
 * address (failures only, 15-minute sliding window, counted in the database
 * so every instance shares them). A limited account or address is refused
 * even with the right password, so the limit cannot be used as an oracle.
 */
import type { Database } from "../db/client";
import { clearHits } from "../db/rate-limits.repo";
import { credentialsByEmail, normalizeEmail } from "../db/users.repo";
import { getEnv } from "../env";
import { unauthenticated } from "../errors";
import { burnPasswordTime, verifyPassword } from "./password";
import { releaseSlot, reserveSlot, type RateLimit } from "./rate-limit";
import { startSession, type SessionPolicy, type StartedSession } from "./sessions.service";

const WINDOW_MS = 15 * 60_000;

export interface SignInLimits {
  account: RateLimit;
  ip: RateLimit;
}

export const signInLimits = (env = getEnv()): SignInLimits => ({
  account: { bucket: "signin-account", max: env.RALPH_SIGNIN_MAX_FAILURES, windowMs: WINDOW_MS },
  ip: { bucket: "signin-ip", max: env.RALPH_SIGNIN_MAX_FAILURES_PER_IP, windowMs: WINDOW_MS },
});

export const BAD_CREDENTIALS = "Email or password is incorrect";

export interface SignInInput {
  email: string;
  password: string;
  ip: string;
  userAgent?: string | null;
  now: number;
  newId: () => string;
  limits?: SignInLimits;
  policy?: SessionPolicy;
}

export async function signIn(db: Database, input: SignInInput): Promise<StartedSession & { userId: string }> {
  const limits = input.limits ?? signInLimits();
  const email = normalizeEmail(input.email);
  // Counted as failures before the password is checked (reserveSlot): concurrent guesses
  // cannot all pass a check made before any of them failed (issue 32: 24 of 24 were checked).
  const accountSlot = await reserveSlot(
    db,
    limits.account,
    email,
    input.now,
    "Too many failed sign-ins for this account.",
  );
  let ipSlot: number;
  try {
    ipSlot = await reserveSlot(db, limits.ip, input.ip, input.now, "Too many failed sign-ins from your address.");
  } catch (error) {
    await releaseSlot(db, accountSlot);
    throw error;
  }

  const user = await credentialsByEmail(db.prisma, email);
  const ok = user ? await verifyPassword(input.password, user.passwordHash) : await burnPasswordTime(input.password);
  if (!user || !ok) throw unauthenticated(BAD_CREDENTIALS);
  // Not a failure: this attempt's address slot is taken back (the address keeps its earlier count).
  await releaseSlot(db, ipSlot);
  if (user.disabledAt) throw unauthenticated("This account is disabled; ask an admin");
  // A success forgets the account's earlier typos (and this attempt's slot).
  await clearHits(db.prisma, limits.account.bucket, email);
  const session = await startSession(db, {
    userId: user.id,
    now: input.now,
    newId: input.newId,
    ip: input.ip,
    userAgent: input.userAgent,
    policy: input.policy,
  });
  return { ...session, userId: user.id };
}

/**
 * Server-side sessions. The cookie carries a 256-bit random token; the table
 * keeps only its SHA-256. A session ends on the first of: logout (revokedAt),
 * no request for `idleMs` (inactivity), `absoluteMs` after sign-in
 * (expiresAt), a password change (other sessions), or the user being disabled.
 */
import type { Database } from "../db/client";
import { insertSession, revokeSession, sessionByHash, touchSession } from "../db/sessions.repo";
import { getEnv } from "../env";
import type { Actor, Role } from "./actor";
import { hashToken, looksLikeToken, newToken } from "./tokens";

export interface SessionPolicy {
  idleMs: number;
  absoluteMs: number;
}

export const sessionPolicy = (env = getEnv()): SessionPolicy => ({
  idleMs: env.RALPH_SESSION_IDLE_MINUTES * 60_000,
  absoluteMs: env.RALPH_SESSION_MAX_HOURS * 3_600_000,
});

/** lastSeenAt is written at most this often: one write per minute per session, not per request. */
const TOUCH_EVERY_MS = 60_000;

export const ROLES = ["viewer", "operator", "admin"] as const satisfies readonly Role[];
export const asRole = (value: string): Role | null =>
  (ROLES as readonly string[]).includes(value) ? (value as Role) : null;

export interface StartedSession {
  id: string;
  token: string;
  expiresAt: Date;
}

export async function startSession(
  db: Database,
  input: {
    userId: string;
    now: number;
    newId: () => string;
    ip?: string | null;
    userAgent?: string | null;
    policy?: SessionPolicy;
  },
): Promise<StartedSession> {
  const policy = input.policy ?? sessionPolicy();
  const token = newToken();
  const id = input.newId();
  const expiresAt = new Date(input.now + policy.absoluteMs);
  await insertSession(db.prisma, {
    id,
    tokenHash: hashToken(token),
    userId: input.userId,
    createdAt: new Date(input.now),
    expiresAt,
    ip: input.ip?.slice(0, 64) ?? null,
    userAgent: input.userAgent?.slice(0, 300) ?? null,
  });
  return { id, token, expiresAt };
}

export interface ResolvedSession {
  sessionId: string;
  actor: Actor;
  expiresAt: Date;
}

/** The live session behind a cookie token, or null. Refreshes lastSeenAt (throttled). */
export async function resolveSession(
  db: Database,
  token: string | null,
  now: number,
  policy = sessionPolicy(),
): Promise<ResolvedSession | null> {
  if (!token || !looksLikeToken(token)) return null;
  const session = await sessionByHash(db.prisma, hashToken(token));
  if (!session || session.revokedAt || session.user.disabledAt) return null;
  if (session.expiresAt.getTime() <= now) return null;
  if (session.createdAt.getTime() + policy.absoluteMs <= now) return null; // the policy may have been shortened since
  if (session.lastSeenAt.getTime() + policy.idleMs <= now) {
    await revokeSession(db.prisma, session.id, new Date(now));
    return null;
  }
  const role = asRole(session.user.role);
  if (!role) return null;
  if (now - session.lastSeenAt.getTime() >= TOUCH_EVERY_MS) await touchSession(db.prisma, session.id, new Date(now));
  return {
    sessionId: session.id,
    expiresAt: session.expiresAt,
    actor: { id: session.user.id, email: session.user.email, name: session.user.name, role },
  };
}

export const endSession = (db: Database, sessionId: string, now: number) =>
  revokeSession(db.prisma, sessionId, new Date(now));

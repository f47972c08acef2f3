/**
 * Personal API tokens for the CLI and CI. The value is shown once; the table
 * keeps its SHA-256. A token's role is capped by its owner's role when it is
 * made and again on every request, so demoting or disabling a user demotes or
 * stops their tokens at once. Revocation is read on the next request.
 */
import type { Database } from "../db/client";
import {
  apiTokenById,
  apiTokenByHash,
  insertApiToken,
  listApiTokens,
  revokeApiToken,
  touchApiToken,
  type ApiTokenRow,
} from "../db/api-tokens.repo";
import { appendEvents } from "../db/events.repo";
import { inTransaction } from "../db/tx";
import { forbidden, invalidInput, notFound } from "../errors";
import { hasRole, type Actor, type Role } from "./actor";
import { asRole } from "./sessions.service";
import { hashToken, newToken } from "./tokens";

/** Bearer tokens carry a prefix so a leaked one is recognisable (and secret scanners can match it). */
export const API_TOKEN_PREFIX = "rct_";
const API_TOKEN = /^rct_[A-Za-z0-9_-]{43}$/;
export const looksLikeApiToken = (value: string) => API_TOKEN.test(value);

/** lastUsedAt is written at most this often per token. */
const TOUCH_EVERY_MS = 60_000;

const lower = (a: Role, b: Role): Role => (hasRole({ role: a } as Actor, b) ? b : a);

export type PublicApiToken = ApiTokenRow & { ownerEmail: string; active: boolean };

const publicOf = (row: ApiTokenRow & { ownerEmail: string }, now: number): PublicApiToken => ({
  ...row,
  active: !row.revokedAt && (!row.expiresAt || row.expiresAt.getTime() > now),
});

export interface CreatedApiToken {
  token: string;
  row: ApiTokenRow;
}

export async function createApiToken(
  db: Database,
  owner: Actor,
  input: { name: string; role?: Role; expiresInDays?: number | null },
  deps: { now: number; newId: () => string },
): Promise<CreatedApiToken> {
  if (!owner.id) throw invalidInput("Only a signed-in user can own an API token");
  if (owner.token) throw forbidden("An API token cannot create other tokens; create it in Settings → Tokens");
  const role = input.role ?? owner.role;
  if (!hasRole(owner, role)) throw forbidden(`Your role (${owner.role}) cannot give a token the ${role} role`);
  const token = `${API_TOKEN_PREFIX}${newToken()}`;
  const createdAt = new Date(deps.now);
  const ownerId = owner.id;
  const row = await inTransaction(db.prisma, async (tx) => {
    const created = await insertApiToken(tx, {
      id: deps.newId(),
      userId: ownerId,
      name: input.name,
      tokenHash: hashToken(token),
      prefix: token.slice(0, API_TOKEN_PREFIX.length + 4),
      role,
      createdAt,
      expiresAt: input.expiresInDays ? new Date(deps.now + input.expiresInDays * 86_400_000) : null,
    });
    await appendEvents(tx, [
      {
        loopId: null,
        type: "api_token_created",
        actorId: ownerId,
        actor: owner.email,
        reason: `API token "${input.name}" created`,
        payload: { tokenId: created.id, name: created.name, role, expiresAt: created.expiresAt?.toISOString() ?? null },
      },
    ]);
    return created;
  });
  return { token, row };
}

/** The caller's own tokens; admins may ask for everyone's. */
export async function listTokens(db: Database, actor: Actor, all: boolean, now: number): Promise<PublicApiToken[]> {
  if (all && actor.role !== "admin") throw forbidden("Only admins can list everyone's tokens");
  if (!actor.id) return [];
  const rows = await listApiTokens(db.prisma, all ? null : actor.id);
  return rows.map((row) => publicOf(row, now));
}

/** Owners revoke their own tokens; admins revoke anyone's. */
export async function revokeTokenById(db: Database, actor: Actor, id: string, now: number): Promise<{ ok: true }> {
  await inTransaction(db.prisma, async (tx) => {
    const row = await apiTokenById(tx, id);
    if (!row || (row.userId !== actor.id && actor.role !== "admin")) throw notFound("API token", id);
    if (!(await revokeApiToken(tx, id, new Date(now)))) return;
    await appendEvents(tx, [
      {
        loopId: null,
        type: "api_token_revoked",
        actorId: actor.id,
        actor: actor.token ? `${actor.email} (token "${actor.token}")` : actor.email,
        reason: `API token "${row.name}" revoked`,
        payload: { tokenId: row.id, name: row.name, ownerId: row.userId },
      },
    ]);
  });
  return { ok: true };
}

/** The actor behind a bearer token, or null (unknown, revoked, expired, owner disabled). */
export async function resolveApiToken(db: Database, token: string, now: number): Promise<Actor | null> {
  if (!looksLikeApiToken(token)) return null;
  const row = await apiTokenByHash(db.prisma, hashToken(token));
  if (!row || row.revokedAt || row.user.disabledAt) return null;
  if (row.expiresAt && row.expiresAt.getTime() <= now) return null;
  const ownerRole = asRole(row.user.role);
  const tokenRole = asRole(row.role);
  if (!ownerRole || !tokenRole) return null;
  if (!row.lastUsedAt || now - row.lastUsedAt.getTime() >= TOUCH_EVERY_MS)
    await touchApiToken(db.prisma, row.id, new Date(now));
  return {
    id: row.user.id,
    email: row.user.email,
    name: row.user.name,
    role: lower(ownerRole, tokenRole),
    token: row.name,
  };
}

/** The bearer value of an Authorization header, or null when there is none. */
export function readBearer(headers: Headers): string | null {
  const value = headers.get("authorization");
  if (!value) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(value);
  return match ? match[1]! : "";
}

/**
 * Read-only share links to one loop's report.
 *
 * - The token is 256 bits from the CSPRNG, returned once by `createShareLink`
 *   (as the path `/r/<token>`); only its SHA-256 is stored.
 * - `resolveShareToken` looks a token up by hash, rate-limited per client IP,
 *   and re-checks expiry and revocation on every call, so a revoke takes
 *   effect on the next request.
 * - Whatever a shared page shows goes through `redactLoopForShare` (see
 *   ./share-redaction.ts): `sharedLoopDetail` and `sharedIterationPage`.
 */
import type { Database } from "../db/client";
import { loopExists } from "../db/loops.repo";
import {
  insertShareLink,
  revokeShareLink,
  shareLinkByHash,
  shareLinksOfLoop,
  touchShareLink,
} from "../db/share-links.repo";
import { notFound } from "../errors";
import { enforceLimit, hit, type RateLimit } from "../auth/rate-limit";
import { hashToken, looksLikeToken, newToken } from "../auth/tokens";
import { getIterationPage, getLoopDetail } from "../loops/loop-detail.service";
import { redactIterationsForShare, redactLoopForShare } from "./share-redaction";
import { redactServerPaths, thisServersPaths } from "./server-paths";
import { limitsInEffect } from "../loops/limits-in-effect";
import { iterationStatusCounts } from "../db/iterations.repo";

/** Unknown, expired or revoked tokens per IP: guessing is pointless at 256 bits, and this makes it slow too. */
export const SHARE_MISS_LIMIT: RateLimit = { bucket: "share-miss-ip", max: 20, windowMs: 10 * 60_000 };
/** Every lookup per IP: generous for a person reloading a page, a cap for scrapers. */
export const SHARE_LOOKUP_LIMIT: RateLimit = { bucket: "share-ip", max: 300, windowMs: 60_000 };

export const sharePath = (token: string) => `/r/${token}`;

export interface CreatedShareLink {
  id: string;
  loopId: string;
  expiresAt: Date | null;
  /** The only time the token is available: `/r/<token>`. */
  path: string;
}

export async function createShareLink(
  db: Database,
  input: { loopId: string; expiresAt: Date | null; createdById: string | null; newId: () => string },
): Promise<CreatedShareLink> {
  if (!(await loopExists(db.prisma, input.loopId))) throw notFound("Loop", input.loopId);
  const token = newToken();
  const row = await insertShareLink(db.prisma, {
    id: input.newId(),
    loopId: input.loopId,
    tokenHash: hashToken(token),
    createdById: input.createdById,
    expiresAt: input.expiresAt,
  });
  return { id: row.id, loopId: row.loopId, expiresAt: row.expiresAt, path: sharePath(token) };
}

export async function listShareLinks(db: Database, loopId: string, now: number) {
  const rows = await shareLinksOfLoop(db.prisma, loopId);
  return rows.map((row) => ({
    ...row,
    state: row.revokedAt
      ? ("revoked" as const)
      : row.expiresAt && row.expiresAt.getTime() <= now
        ? ("expired" as const)
        : ("active" as const),
  }));
}

export async function revokeShare(db: Database, id: string, now: number): Promise<void> {
  if (!(await revokeShareLink(db.prisma, id, new Date(now)))) throw notFound("Share link", id);
}

/**
 * The loop a share token opens, or null (unknown, malformed, expired or
 * revoked: callers answer 404 without saying which). Throws RATE_LIMITED
 * (DomainError) when `ip` looked up too many links; render that as 429.
 *
 * @param ip the client address from the request (`clientIp(headers)`); the
 *           rate-limit key, never trusted for anything else.
 * @param now epoch ms; injectable for tests.
 */
export async function resolveShareToken(
  db: Database,
  token: string,
  ip: string,
  now = Date.now(),
): Promise<{ loopId: string } | null> {
  await enforceLimit(db, SHARE_LOOKUP_LIMIT, ip, now, "Too many shared-page requests from your address.");
  await hit(db, SHARE_LOOKUP_LIMIT, ip, now);
  const link = await liveShareLink(db, token, now);
  if (!link) {
    // Only misses are held to the miss limit: behind a shared proxy address,
    // someone else's bad links must not block a valid one. Guessing stays
    // bounded by the lookup limit above (and by 256-bit tokens).
    await enforceLimit(db, SHARE_MISS_LIMIT, ip, now, "Too many invalid share links from your address.");
    await hit(db, SHARE_MISS_LIMIT, ip, now);
    return null;
  }
  await touchShareLink(db.prisma, link.id, new Date(now));
  return { loopId: link.loopId };
}

/** The share link a token opens, if it is known, not revoked and not expired. Records nothing. */
export async function liveShareLink(db: Database, token: string, now: number) {
  const link = looksLikeToken(token) ? await shareLinkByHash(db.prisma, hashToken(token)) : null;
  return link && !link.revokedAt && (!link.expiresAt || link.expiresAt.getTime() > now) ? link : null;
}

/**
 * A loop as a shared page shows it (and as the share preview shows operators):
 * its detail, allow-listed, with how its runs ended (an interrupted run is
 * neither a success nor a failure, and is counted as interrupted) and the
 * limits in effect, edited ones marked.
 */
export async function sharedLoopDetail(db: Database, loopId: string, now: number) {
  const [detail, outcomes] = await Promise.all([
    getLoopDetail(db, loopId, now),
    iterationStatusCounts(db.prisma, loopId),
  ]);
  const stored = (detail.loop.config ?? {}) as { loop?: unknown };
  return redactServerPaths(
    { ...redactLoopForShare(detail), outcomes, limits: limitsInEffect(detail.config, stored.loop) },
    thisServersPaths(),
  );
}

/** A page of a shared loop's iterations, allow-listed like the rest of the page. */
export async function sharedIterationPage(
  db: Database,
  loopId: string,
  page: { beforeNumber?: number; limit: number },
) {
  const { items, nextBeforeNumber } = await getIterationPage(db, loopId, page);
  // A fork's inherited rows say so, without naming the loop they came from.
  const rows = items.map(({ inheritedFrom, ...row }) => ({ ...row, inherited: inheritedFrom !== null }));
  return { items: redactServerPaths(redactIterationsForShare(rows), thisServersPaths()), nextBeforeNumber };
}

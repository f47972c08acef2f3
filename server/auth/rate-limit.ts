// Sliding-window rate limits over the RateLimitHit table. A limit is checked
// before the work and a hit recorded after it, so the check is cheap (one
// indexed count) and shared by every instance. Two racing requests may both
// pass the last free slot; that over-admits by at most the number of
// instances, which is fine for cheap lookups. Password checks use
// reserveSlot instead, which never over-admits.
import type { Database } from "../db/client";
import { countHits, oldestHit, recordHit, releaseHit, reserveHit } from "../db/rate-limits.repo";
import { rateLimited } from "../errors";

export interface RateLimit {
  bucket: string;
  max: number;
  windowMs: number;
}

async function refusal(db: Database, limit: RateLimit, key: string, now: number, message: string): Promise<never> {
  const oldest = await oldestHit(db.prisma, limit.bucket, key, new Date(now - limit.windowMs));
  const retryMs = oldest ? oldest.getTime() + limit.windowMs - now : limit.windowMs;
  const minutes = Math.max(1, Math.ceil(retryMs / 60_000));
  throw rateLimited(`${message} Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`, Math.ceil(retryMs / 1000));
}

/**
 * Where racing requests must not over-admit (password guesses): the attempt
 * is counted first, then the window is read. Of any number of concurrent
 * attempts at most `max` see a count within the limit, since each counts its
 * own row and every row inserted before its count. A refused attempt's row
 * is taken back (refusals are not failures); the caller takes it back too if
 * the attempt turns out not to count (a right password). Returns the row's id.
 */
export async function reserveSlot(
  db: Database,
  limit: RateLimit,
  key: string,
  now: number,
  message: string,
): Promise<number> {
  const id = await reserveHit(db.prisma, limit.bucket, key, new Date(now));
  if ((await countHits(db.prisma, limit.bucket, key, new Date(now - limit.windowMs))) <= limit.max) return id;
  await releaseHit(db.prisma, id);
  return refusal(db, limit, key, now, message);
}

export const releaseSlot = (db: Database, id: number) => releaseHit(db.prisma, id);

/** Throws RATE_LIMITED with `message` and a retry time when `key` used up its window. */
export async function enforceLimit(
  db: Database,
  limit: RateLimit,
  key: string,
  now: number,
  message: string,
): Promise<void> {
  const since = new Date(now - limit.windowMs);
  if ((await countHits(db.prisma, limit.bucket, key, since)) < limit.max) return;
  return refusal(db, limit, key, now, message);
}

export const hit = (db: Database, limit: RateLimit, key: string, now: number) =>
  recordHit(db.prisma, limit.bucket, key, new Date(now));

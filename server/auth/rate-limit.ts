// Sliding-window rate limits over the RateLimitHit table. A limit is checked
// before the work and a hit recorded after it, so the check is cheap (one
// indexed count) and shared by every instance. Two racing requests may both
// pass the last free slot; that over-admits by at most the number of
// instances, which is fine for brute-force protection.
import type { Database } from "../db/client";
import { countHits, oldestHit, recordHit } from "../db/rate-limits.repo";
import { rateLimited } from "../errors";

export interface RateLimit {
  bucket: string;
  max: number;
  windowMs: number;
}

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
  const oldest = await oldestHit(db.prisma, limit.bucket, key, since);
  const retryMs = oldest ? oldest.getTime() + limit.windowMs - now : limit.windowMs;
  const minutes = Math.max(1, Math.ceil(retryMs / 60_000));
  throw rateLimited(`${message} Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`, Math.ceil(retryMs / 1000));
}

export const hit = (db: Database, limit: RateLimit, key: string, now: number) =>
  recordHit(db.prisma, limit.bucket, key, new Date(now));

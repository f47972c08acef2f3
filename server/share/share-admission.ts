/**
 * Whether `/r/<token>` may render for this caller, decided before the page
 * renders so a refusal can be a real HTTP 429 with Retry-After: an App Router
 * page cannot set its own status, so without this a rate-limited page said
 * "Too many requests" with a 200. proxy.ts asks through the hook below.
 *
 * Read-only: it records no hit. The page's own lookups (share.view and
 * share.iterations) record them, so it admits a page only while both fit in
 * the lookup window; a miss is refused only when the miss limit is used up,
 * exactly as resolveShareToken would refuse it. A valid link is never held to
 * the miss limit: behind one proxy address, someone else's bad links must not
 * block it.
 */
import type { Database } from "../db/client";
import { DomainError } from "../errors";
import { enforceLimit } from "../auth/rate-limit";
import type { ShareAdmission } from "../auth/share-page-gate";
import { liveShareLink, SHARE_LOOKUP_LIMIT, SHARE_MISS_LIMIT } from "./share-links.service";

/** Lookups one page view records: share.view, then share.iterations for the final output. */
export const PAGE_LOOKUPS = 2;

export async function shareAdmission(db: Database, token: string, ip: string, now: number): Promise<ShareAdmission> {
  try {
    const room = { ...SHARE_LOOKUP_LIMIT, max: SHARE_LOOKUP_LIMIT.max - (PAGE_LOOKUPS - 1) };
    await enforceLimit(db, room, ip, now, "Too many shared-page requests from your address.");
    if (!(await liveShareLink(db, token, now)))
      await enforceLimit(db, SHARE_MISS_LIMIT, ip, now, "Too many invalid share links from your address.");
    return { ok: true };
  } catch (error) {
    if (!(error instanceof DomainError) || error.code !== "RATE_LIMITED") throw error;
    const retry = Number(error.details?.retryAfterSeconds);
    return { ok: false, message: error.message, retryAfterSeconds: Number.isFinite(retry) && retry > 0 ? retry : 60 };
  }
}

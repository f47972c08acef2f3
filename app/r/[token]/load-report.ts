// Loads what /r/<token> and its exports show, through the public share
// procedures. Null for an unknown, expired or revoked token (→ 404), and a
// "slow down" marker when the caller's address hit the lookup rate limit.
import { TRPCError } from "@trpc/server";
import { serverCaller } from "@/lib/trpc/server";
import { reportDownload, type ReportFormat } from "./export/formats";

export async function loadSharedReport(token: string) {
  const caller = await serverCaller();
  try {
    const report = await caller.share.view({ token });
    const last = await caller.share.iterations({ token, limit: 1 });
    return { kind: "ok" as const, report, final: last.items[0] ?? null, generatedAt: new Date() };
  } catch (error) {
    // A token the input schema refuses (too long, say) is just another unknown link.
    if (error instanceof TRPCError && (error.code === "NOT_FOUND" || error.code === "BAD_REQUEST"))
      return { kind: "missing" as const };
    if (error instanceof TRPCError && error.code === "TOO_MANY_REQUESTS") return { kind: "limited" as const };
    throw error;
  }
}

const plain = (text: string, status: number, extra: Record<string, string> = {}) =>
  new Response(`${text}\n`, { status, headers: { "content-type": "text/plain; charset=utf-8", ...extra } });

/**
 * One export of the shared report as a download: the same 404 / 429 answers
 * as the page, and headers that keep it out of caches and referrers.
 */
export async function exportSharedReport(token: string, format: ReportFormat) {
  const loaded = await loadSharedReport(token);
  if (loaded.kind === "missing") return plain("Not found", 404);
  if (loaded.kind === "limited") return plain("Too many requests", 429, { "retry-after": "60" });
  return reportDownload(loaded, format);
}

/** The same download for a signed-in user, from the loop page (no link needed); 404 without access. */
export async function exportLoopReport(id: string, format: ReportFormat) {
  const caller = await serverCaller();
  try {
    const { report, last } = await caller.loops.exportReport({ id });
    return reportDownload({ report, final: last.items[0] ?? null, generatedAt: new Date() }, format);
  } catch (error) {
    if (error instanceof TRPCError && ["NOT_FOUND", "BAD_REQUEST", "UNAUTHORIZED", "FORBIDDEN"].includes(error.code))
      return plain("Not found", 404);
    throw error;
  }
}

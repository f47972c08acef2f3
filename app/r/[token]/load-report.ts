// Loads what /r/<token> and its exports show, through the public share
// procedures. Null for an unknown, expired or revoked token (→ 404), and a
// "slow down" marker when the caller's address hit the lookup rate limit.
import { TRPCError } from "@trpc/server";
import { serverCaller } from "@/server/api/rsc";

export async function loadSharedReport(token: string) {
  const caller = await serverCaller();
  try {
    const report = await caller.share.view({ token });
    const last = await caller.share.iterations({ token, limit: 1 });
    return { kind: "ok" as const, report, final: last.items[0] ?? null, generatedAt: new Date() };
  } catch (error) {
    if (error instanceof TRPCError && error.code === "NOT_FOUND") return { kind: "missing" as const };
    if (error instanceof TRPCError && error.code === "TOO_MANY_REQUESTS") return { kind: "limited" as const };
    throw error;
  }
}

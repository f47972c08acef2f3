// Settings → Usage limits: the limit windows recorded per provider account and
// the loops waiting on each, plus loops waiting on a limit of their own.
import type { Database } from "../db/client";
import { activeLimitWindows, loopsWaitingForLimit } from "../db/usage-limits.repo";
import { loopAccounts } from "./usage-account";

export interface UsageLimitOverview {
  windows: {
    account: string;
    until: Date;
    learnedAt: Date;
    message: string;
    learnedBy: string | null;
    window: string | null;
    usedPercent: number | null;
    loops: { id: string; name: string; nextRunAt: Date | null }[];
  }[];
  /** Waiting on a limit whose account no window covers (a backoff without a reset time). */
  otherWaiting: { id: string; name: string; nextRunAt: Date | null }[];
}

export async function usageLimitOverview(db: Database, now: Date): Promise<UsageLimitOverview> {
  const [windows, waiting] = await Promise.all([activeLimitWindows(db.prisma, now), loopsWaitingForLimit(db.prisma)]);
  const byAccount = new Map(windows.map((w) => [w.account, [] as UsageLimitOverview["otherWaiting"]]));
  const otherWaiting: UsageLimitOverview["otherWaiting"] = [];
  for (const loop of waiting) {
    const row = { id: loop.id, name: loop.name, nextRunAt: loop.nextRunAt };
    const account = loopAccounts(loop.config).primary;
    const list = account !== null ? byAccount.get(account) : undefined;
    (list ?? otherWaiting).push(row);
  }
  return {
    windows: windows.map((w) => ({
      account: w.account,
      until: w.until,
      learnedAt: w.learnedAt,
      message: w.message,
      learnedBy: w.loopId,
      window: w.window,
      usedPercent: w.usedPercent,
      loops: byAccount.get(w.account) ?? [],
    })),
    otherWaiting,
  };
}

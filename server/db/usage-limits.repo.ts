// Provider usage-limit windows shared by the loops on one account: one row per
// account, kept at the latest reset any loop learned of.
import type { Db } from "./prisma-client";
import { inTransaction } from "./tx";

export interface UsageLimitWindowRow {
  account: string;
  until: Date;
  learnedAt: Date;
  message: string;
  loopId: string | null;
  window: string | null;
  usedPercent: number | null;
}

const WINDOW_FIELDS = {
  account: true,
  until: true,
  learnedAt: true,
  message: true,
  loopId: true,
  window: true,
  usedPercent: true,
} as const;

/** The window still in force for an account, if any. */
export async function activeLimitWindow(db: Db, account: string, now: Date): Promise<UsageLimitWindowRow | null> {
  return db.usageLimitWindow.findFirst({
    where: { account, until: { gt: now } },
    select: WINDOW_FIELDS,
  });
}

/**
 * Records what one loop learned. A later reset extends the window; an earlier
 * one never shortens it (another loop may know of a longer limit). A window
 * already over is replaced, and the new one counts as freshly learned.
 */
export async function recordLimitWindow(db: Db, window: UsageLimitWindowRow): Promise<void> {
  await inTransaction(db, async (tx) => {
    const current = await tx.usageLimitWindow.findUnique({ where: { account: window.account } });
    if (!current) {
      await tx.usageLimitWindow.create({ data: window });
      return;
    }
    if (current.until >= window.until) return;
    const fresh = current.until <= window.learnedAt;
    await tx.usageLimitWindow.update({
      where: { account: window.account },
      data: {
        until: window.until,
        message: window.message,
        loopId: window.loopId,
        window: window.window,
        usedPercent: window.usedPercent,
        ...(fresh ? { learnedAt: window.learnedAt } : {}),
      },
    });
  });
}

/** Every window still in force, soonest reset first (Settings). */
export async function activeLimitWindows(db: Db, now: Date): Promise<UsageLimitWindowRow[]> {
  return db.usageLimitWindow.findMany({
    where: { until: { gt: now } },
    orderBy: { until: "asc" },
    select: WINDOW_FIELDS,
  });
}

/** Loops waiting for a usage limit, for Settings. */
export async function loopsWaitingForLimit(db: Db) {
  return db.loop.findMany({
    where: { status: "waiting_for_limit" },
    select: { id: true, name: true, agentKind: true, config: true, nextRunAt: true },
    orderBy: { nextRunAt: "asc" },
  });
}

/** Removes an account's window (an admin cleared it); returns what it was, or null when none was in force. */
export async function deleteLimitWindow(db: Db, account: string): Promise<UsageLimitWindowRow | null> {
  const current = await db.usageLimitWindow.findUnique({
    where: { account },
    select: WINDOW_FIELDS,
  });
  if (!current) return null;
  await db.usageLimitWindow.deleteMany({ where: { account } });
  return current;
}

// Spend a dead server's agents printed and it never stored (issue 32): its
// spawn helper wrote each unconfirmed attempt's output tail to a spool file
// (server/agents/spend-spool.ts). Whoever finds one counts it through the
// stranded-spend path (server/db/stranded-spend.repo.ts): the attempt's
// interrupted row is raised to what the agent reported (created if nobody
// recorded the crash yet), keyed by (iteration, attempt), never counted twice;
// an attempt that was committed is left as it is. Then the file is deleted.
// Found by the loop's next owner when it restores the loop, and by a periodic
// sweep in every runtime (the next owner may have passed that point already).
import { getEnv } from "../env";
import type { Db } from "../db/client";
import { recordStrandedSpend } from "../db/stranded-spend.repo";
import { listSpools, readSpooledSpend, removeSpool } from "../agents/spend-spool";

/** Counts and deletes the spools found (of one loop, or all). Returns how many attempts got spend. */
export async function recoverSpooledSpend(
  db: Db,
  now: Date,
  opts: { loopId?: string; dataDir?: string } = {},
): Promise<number> {
  const dataDir = opts.dataDir ?? getEnv().RALPH_DATA_DIR;
  let counted = 0;
  for (const spool of listSpools(dataDir, opts.loopId)) {
    const spend = readSpooledSpend(spool.file);
    const loopId = opts.loopId ?? spool.loopDir;
    if (spend) {
      // The database may be what failed: the file stays for the next look.
      const added = await recordStrandedSpend(
        db,
        loopId,
        { number: spool.iteration, attempt: spool.attempt, startedAt: now },
        spend,
        now,
        "spool",
      );
      if (added) counted++;
    }
    removeSpool(spool.file);
  }
  return counted;
}

/** How often a runtime looks for spools: a look with nothing there is one failed readdir. */
export const SPOOL_SWEEP_MS = 1000;

/** The periodic look of a runtime (worker or app): never throws, logs what it could not do. */
export function startSpoolSweep(db: Db, intervalMs: number, log: (m: string) => void = console.warn) {
  let running = false;
  const sweep = async () => {
    if (running) return;
    running = true;
    try {
      const counted = await recoverSpooledSpend(db, new Date());
      if (counted) log(`spool sweep: counted the spend of ${counted} attempt(s) a dead runtime's spawn helper kept`);
    } catch (error) {
      log(`spool sweep: ${String(error)}`);
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void sweep(), intervalMs);
  timer.unref?.();
  void sweep();
  return { stop: () => clearInterval(timer), sweepNow: sweep };
}

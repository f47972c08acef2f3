// Finds loops that need a runtime and nobody is running: expired leases after
// a crash, queued loops whose dispatch was lost, waits and approval deadlines
// that came due; and permission prompts whose waiting process is gone (a restart):
// their deadline's default, or a deny when the loop stopped. Runs at start and then periodically.
import { findDueLoops } from "../db/loop-lease.repo";
import type { Database } from "../db/client";
import { settlePermissionPrompts } from "../loops/permission-prompts.service";
import { systemDeps } from "./system-deps";
import type { Dispatcher } from "./runtime-deps";

export interface Sweeper {
  sweepNow(): Promise<number>;
  stop(): void;
}

export function startSweeper(
  db: Database,
  dispatcher: Dispatcher,
  intervalMs: number,
  options: { batch?: number; initialDelayMs?: number } = {},
): Sweeper {
  const batch = options.batch ?? 200;
  let running = false;
  const sweepNow = async () => {
    if (running) return 0;
    running = true;
    try {
      const due = await findDueLoops(db.prisma, new Date(), batch);
      for (const id of due) dispatcher.dispatch(id);
      await settlePermissionPrompts({ db, engine: systemDeps });
      return due.length;
    } catch (error) {
      console.warn(`sweeper: ${String(error)}`);
      return 0;
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void sweepNow(), intervalMs);
  timer.unref?.();
  // The first sweep waits a moment: at start-up the server is not listening yet.
  const first = setTimeout(() => void sweepNow(), options.initialDelayMs ?? 0);
  first.unref?.();
  return {
    sweepNow,
    stop: () => {
      clearTimeout(first);
      clearInterval(timer);
    },
  };
}

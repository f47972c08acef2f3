// Keeps a claimed loop's lease alive while a slice runs. When the lease is
// lost (expired and taken over), it aborts the slice's signal: the runtime
// stops at once and writes nothing more (every write is fenced anyway).
import { LeaseLostError, renewLease } from "../db/loop-lease.repo";
import type { JobRuntime } from "./runtime-deps";

export class LeaseKeeper {
  private timer: ReturnType<typeof setInterval> | undefined;
  private readonly lostLease = new AbortController();
  lost = false;

  constructor(
    private readonly rt: JobRuntime,
    private readonly loopId: string,
    private readonly owner: string,
  ) {}

  /** Aborted when the lease is lost. */
  get signal(): AbortSignal {
    return this.lostLease.signal;
  }

  start() {
    this.timer = setInterval(() => void this.beat(), this.rt.settings.heartbeatMs);
    this.timer.unref?.();
  }

  private async beat() {
    if (this.lost) return;
    try {
      const now = new Date(this.rt.engine.now());
      await renewLease(this.rt.db.prisma, this.loopId, this.owner, now, this.rt.settings.leaseMs);
    } catch (error) {
      if (error instanceof LeaseLostError) {
        this.lost = true;
        this.lostLease.abort({ kind: "cancel", by: "system", reason: "lease lost" });
      }
      // Other errors (a busy database) are retried on the next beat.
    }
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}

// Keeps a claimed loop's lease alive while a slice runs, and turns a stored
// kill request into an abort of the running agent (the heartbeat doubles as
// the cancel channel, so a kill lands within one heartbeat).
import { killReason } from "../engine";
import { pendingControlRequests } from "../db/controls.repo";
import { LeaseLostError, renewLease } from "../db/loop-lease.repo";
import type { JobRuntime } from "./runtime-deps";

export class LeaseKeeper {
  private timer: ReturnType<typeof setInterval> | undefined;
  private current: AbortController | undefined;
  lost = false;
  /** The kill request that aborted the current iteration, to acknowledge with its result. */
  killRequestId: string | null = null;

  constructor(
    private readonly rt: JobRuntime,
    private readonly loopId: string,
    private readonly owner: string,
  ) {}

  start() {
    this.timer = setInterval(() => void this.beat(), this.rt.settings.heartbeatMs);
    this.timer.unref?.();
  }

  /** The signal for one iteration; aborted by a kill request or a lost lease. */
  iterationSignal(): AbortSignal {
    this.current = new AbortController();
    this.killRequestId = null;
    return this.current.signal;
  }

  endIteration() {
    this.current = undefined;
  }

  private async beat() {
    if (this.lost) return;
    try {
      await renewLease(this.rt.db.prisma, this.loopId, this.owner, new Date(this.rt.engine.now()), this.rt.settings.leaseMs);
      const iteration = this.current;
      if (!iteration || iteration.signal.aborted) return;
      const kill = (await pendingControlRequests(this.rt.db.prisma, this.loopId)).find((r) => r.kind === "kill");
      if (kill && !iteration.signal.aborted) {
        this.killRequestId = kill.id;
        iteration.abort(killReason(kill.actor, kill.reason ?? "operator kill"));
      }
    } catch (error) {
      if (error instanceof LeaseLostError) {
        this.lost = true;
        this.current?.abort({ kind: "cancel", by: "system", reason: "lease lost" });
      }
      // Other errors (a busy database) are retried on the next beat.
    }
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}

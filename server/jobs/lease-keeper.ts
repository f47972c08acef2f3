// Keeps the leases of a process's running slices alive: one keeper per
// runtime renews all of them in one statement every heartbeat (not one write
// per slice, which alone saturated SQLite with 1,000 slices at once), and
// answers, in the same tick, which loops have operator requests waiting, so a
// slice looks for a kill only when there is something to find. When a lease is
// lost (expired and taken over), the keeper aborts that slice's signal: the
// runtime stops at once and writes nothing more (every write is fenced anyway).
import { renewLeases } from "../db/loop-lease.repo";
import type { JobRuntime } from "./runtime-deps";

/** One slice's hold on its loop's lease, as long as the slice runs. */
export class LeaseHold {
  private readonly lostLease = new AbortController();
  /**
   * Whether the loop has operator requests waiting, as of the keeper's last
   * tick; unknown (true) until a tick answered, and after a failed one.
   */
  controlsPending = true;

  constructor(
    readonly loopId: string,
    readonly owner: string,
    private readonly keeper: LeaseKeeper,
  ) {}

  /** Aborted when the lease is lost. */
  get signal(): AbortSignal {
    return this.lostLease.signal;
  }

  get lost(): boolean {
    return this.lostLease.signal.aborted;
  }

  /** @internal the keeper found the lease taken over. */
  markLost() {
    this.lostLease.abort({ kind: "cancel", by: "system", reason: "lease lost" });
  }

  /** The slice ended: its lease is no longer renewed. */
  release() {
    this.keeper.drop(this);
  }
}

export class LeaseKeeper {
  private readonly holds = new Set<LeaseHold>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private ticking = false;

  constructor(private readonly rt: JobRuntime) {}

  hold(loopId: string, owner: string): LeaseHold {
    const hold = new LeaseHold(loopId, owner, this);
    this.holds.add(hold);
    if (!this.timer) {
      this.timer = setInterval(() => void this.tick(), this.rt.settings.heartbeatMs);
      this.timer.unref?.();
    }
    return hold;
  }

  /** @internal */
  drop(hold: LeaseHold) {
    this.holds.delete(hold);
    if (this.holds.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  /** Renews every held lease once; exported for tests that cannot wait for the timer. */
  async tick(): Promise<void> {
    // A slow database must not pile up renewals: the next interval renews whatever is held then.
    if (this.ticking || this.holds.size === 0) return;
    this.ticking = true;
    const held = [...this.holds].filter((h) => !h.lost);
    try {
      const now = new Date(this.rt.engine.now());
      const { lost, pendingControls } = await renewLeases(
        this.rt.db.prisma,
        this.rt.db.kind,
        held,
        now,
        this.rt.settings.leaseMs,
      );
      for (const hold of lost) hold.markLost();
      for (const hold of held) hold.controlsPending = pendingControls.has(hold.loopId);
    } catch {
      // A busy or unreachable database: retried on the next tick. Until then slices read controls themselves.
      for (const hold of held) hold.controlsPending = true;
    } finally {
      this.ticking = false;
    }
  }
}

const keepers = new WeakMap<JobRuntime, LeaseKeeper>();

/** The one lease keeper of a runtime (a process runs one runtime; tests may run several). */
export function leaseKeeperOf(rt: JobRuntime): LeaseKeeper {
  let keeper = keepers.get(rt);
  if (!keeper) keepers.set(rt, (keeper = new LeaseKeeper(rt)));
  return keeper;
}

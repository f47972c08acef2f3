// Keeps the leases of a process's running slices alive: one keeper per
// runtime renews all of them in one statement every heartbeat (not one write
// per slice, which alone saturated SQLite with 1,000 slices at once), and
// answers, in the same tick, which loops have operator requests waiting, so a
// slice looks for a kill only when there is something to find. When a lease is
// lost (expired and taken over), the keeper aborts that slice's signal: the
// runtime stops at once and writes nothing more (every write is fenced anyway).
//
// Exactly one agent per attempt (issue 32): a lease expires TTL after the last
// renewal that reached the database, and only then may another runtime claim.
// A hold whose renewals kept failing gives up on its own at half the TTL since
// its last good renewal (KILL_FRACTION): the slice's signal is aborted, which
// kills the agent's process group, well before anyone can claim and launch
// the next attempt. The launch itself is fenced in the database (fenceLaunch).
import type { JobRuntime } from "./runtime-deps";

/** One slice's hold on its loop's lease, as long as the slice runs. */
export class LeaseHold {
  private readonly lostLease = new AbortController();
  /**
   * Whether the loop has operator requests waiting, as of the keeper's last
   * tick; unknown (true) until a tick answered, and after a failed one.
   */
  controlsPending = true;
  /** Engine time at which the last renewal that reached the database was sent (the claim counts as one). */
  renewedAt: number;

  constructor(
    readonly loopId: string,
    readonly owner: string,
    private readonly keeper: LeaseKeeper,
    now: number,
  ) {
    this.renewedAt = now;
  }

  /** A renewal sent at `at` (engine time) was kept: the lease runs a whole TTL from then. */
  renewed(at: number) {
    if (at > this.renewedAt) this.renewedAt = at;
  }

  /** Aborted when the lease is lost. */
  get signal(): AbortSignal {
    return this.lostLease.signal;
  }

  get lost(): boolean {
    return this.lostLease.signal.aborted;
  }

  /** @internal the keeper found the lease taken over. */
  markLost(reason = "lease lost") {
    this.lostLease.abort({ kind: "cancel", by: "system", reason });
  }

  /** The slice ended: its lease is no longer renewed. */
  release() {
    this.keeper.drop(this);
  }
}

/** A hold not renewed for this share of the TTL gives up (kills its agent) before the lease can be claimed. */
export const KILL_FRACTION = 0.5;

export class LeaseKeeper {
  private readonly holds = new Set<LeaseHold>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private ticking = false;

  constructor(private readonly rt: JobRuntime) {}

  hold(loopId: string, owner: string): LeaseHold {
    const hold = new LeaseHold(loopId, owner, this, this.rt.engine.now());
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
    // Before anything that can wait on the database: a renewal stuck for half the TTL must not keep the agent alive.
    this.giveUpStale();
    // A slow database must not pile up renewals: the next interval renews whatever is held then.
    if (this.ticking || this.holds.size === 0) return;
    this.ticking = true;
    const held = [...this.holds].filter((h) => !h.lost);
    try {
      const sentAt = this.rt.engine.now();
      const now = new Date(sentAt);
      const { lost, pendingControls } = await this.rt.db.loopStore.renewLeases(held, now, this.rt.settings.leaseMs);
      const lostSet = new Set(lost);
      for (const hold of lost) hold.markLost();
      for (const hold of held) if (!lostSet.has(hold)) hold.renewed(sentAt);
      for (const hold of held) hold.controlsPending = pendingControls.has(hold.loopId);
    } catch {
      // A busy or unreachable database: retried on the next tick. Until then slices read controls themselves.
      for (const hold of held) hold.controlsPending = true;
    } finally {
      this.ticking = false;
    }
    this.giveUpStale();
  }

  /** Aborts every hold whose last good renewal is older than KILL_FRACTION of the TTL. */
  giveUpStale() {
    const limit = this.rt.engine.now() - this.rt.settings.leaseMs * KILL_FRACTION;
    for (const hold of this.holds)
      if (!hold.lost && hold.renewedAt < limit) hold.markLost("lease not renewed in time: agent stopped before expiry");
  }
}

const keepers = new WeakMap<JobRuntime, LeaseKeeper>();

/** The one lease keeper of a runtime (a process runs one runtime; tests may run several). */
export function leaseKeeperOf(rt: JobRuntime): LeaseKeeper {
  let keeper = keepers.get(rt);
  if (!keeper) keepers.set(rt, (keeper = new LeaseKeeper(rt)));
  return keeper;
}

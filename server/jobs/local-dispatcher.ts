// Runs slices in this process: the app in in-process mode (bounded by the
// process's semaphore), the standalone worker, benchmarks and tests.
import { dispatchTimer, type Dispatcher, type JobRuntime } from "./runtime-deps";
import type { Release, Semaphore } from "./semaphore";
import { runSlice, type SliceResult } from "./slice-runner";

const MAX_KEPT_ERRORS = 50;

export class LocalDispatcher implements Dispatcher {
  private readonly active = new Map<string, Promise<SliceResult | undefined>>();
  /** Dispatched, waiting for a free slot. */
  private readonly queued = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private runtime: JobRuntime | undefined;
  private stopped = false;
  /** The latest slices that threw (at most MAX_KEPT_ERRORS: a long outage must not grow memory). */
  readonly errors: unknown[] = [];
  /** Every slice that threw, kept or not. */
  errorCount = 0;

  /** `slots` bounds the slices that dispatch() starts; without it they all start at once. */
  constructor(private readonly slots?: Semaphore) {}

  attach(runtime: JobRuntime) {
    this.runtime = runtime;
  }

  get activeCount() {
    return this.active.size;
  }

  get queuedCount() {
    return this.queued.size;
  }

  /** Runs a loop this process already holds the lease on (claimed in a batch, within its own limit). */
  runClaimed(loopId: string, owner: string): void {
    if (this.stopped || !this.runtime || this.active.has(loopId)) return;
    this.track(loopId, runSlice(this.runtime, loopId, owner));
  }

  dispatch(loopId: string): void {
    if (this.stopped || !this.runtime) return;
    // One slice per loop per process; a dispatch during a slice runs once more after it.
    if (this.active.has(loopId)) {
      this.again.add(loopId);
      return;
    }
    if (this.queued.has(loopId)) return;
    if (!this.slots) {
      this.track(loopId, runSlice(this.runtime, loopId));
      return;
    }
    const runtime = this.runtime;
    const waiting = this.slots.acquire().then((release) => {
      this.queued.delete(loopId);
      if (this.stopped) return release();
      if (this.active.has(loopId)) {
        this.again.add(loopId);
        return release();
      }
      this.track(loopId, runSlice(runtime, loopId), release);
    });
    this.queued.set(loopId, waiting);
  }

  private track(loopId: string, slice: Promise<SliceResult>, release?: Release) {
    const run = slice
      .catch((error: unknown) => {
        // A slice that throws has left its lease to expire; the sweeper retries it from its checkpoint.
        this.errorCount++;
        this.errors.push(error);
        if (this.errors.length > MAX_KEPT_ERRORS) this.errors.splice(0, this.errors.length - MAX_KEPT_ERRORS);
        return undefined;
      })
      .finally(() => {
        release?.();
        this.active.delete(loopId);
        if (this.again.delete(loopId)) this.dispatch(loopId);
      });
    this.active.set(loopId, run);
  }

  dispatchAt(loopId: string, at: Date): void {
    if (this.stopped) return;
    const timer = dispatchTimer(at, () => {
      this.timers.delete(timer);
      this.dispatch(loopId);
    });
    this.timers.add(timer);
  }

  /** Resolves when no slice is running or waiting for a slot (tests and benchmarks). */
  async idle(): Promise<void> {
    while (this.active.size > 0 || this.queued.size > 0) {
      await Promise.all([...this.active.values(), ...this.queued.values()]);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    await this.idle();
  }
}

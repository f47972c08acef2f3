// Runs slices in this process: the standalone worker, benchmarks and tests.
import type { Dispatcher, JobRuntime } from "./runtime-deps";
import { runSlice, type SliceResult } from "./slice-runner";

export class LocalDispatcher implements Dispatcher {
  private readonly active = new Map<string, Promise<SliceResult | undefined>>();
  private readonly again = new Set<string>();
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private runtime: JobRuntime | undefined;
  private stopped = false;
  readonly errors: unknown[] = [];

  attach(runtime: JobRuntime) {
    this.runtime = runtime;
  }

  get activeCount() {
    return this.active.size;
  }

  /** Runs a loop this process already holds the lease on (claimed in a batch). */
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
    this.track(loopId, runSlice(this.runtime, loopId));
  }

  private track(loopId: string, slice: Promise<SliceResult>) {
    const run = slice
      .catch((error: unknown) => {
        this.errors.push(error);
        return undefined;
      })
      .finally(() => {
        this.active.delete(loopId);
        if (this.again.delete(loopId)) this.dispatch(loopId);
      });
    this.active.set(loopId, run);
  }

  dispatchAt(loopId: string, at: Date): void {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.dispatch(loopId);
      // Timers may fire a millisecond early; the claim compares against the stored time.
    }, Math.max(0, at.getTime() - Date.now()) + 5);
    timer.unref?.();
    this.timers.add(timer);
  }

  /** Resolves when no slice is running (tests and benchmarks). */
  async idle(): Promise<void> {
    while (this.active.size > 0) await Promise.all([...this.active.values()]);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    await this.idle();
  }
}

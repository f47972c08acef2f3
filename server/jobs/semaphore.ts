// A counting semaphore: at most `limit` holders at a time, the rest wait in
// arrival order. Bounds how many slices one process runs at once.
export type Release = () => void;

export class Semaphore {
  private held = 0;
  private readonly waiters: ((release: Release) => void)[] = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`a semaphore needs a limit >= 1, not ${limit}`);
  }

  get inUse(): number {
    return this.held;
  }

  get waiting(): number {
    return this.waiters.length;
  }

  /** A slot now, or null when all are taken. */
  tryAcquire(): Release | null {
    if (this.held >= this.limit) return null;
    this.held++;
    return this.releaser();
  }

  /** Resolves with a slot once one is free. */
  acquire(): Promise<Release> {
    const now = this.tryAcquire();
    if (now) return Promise.resolve(now);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private releaser(): Release {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const next = this.waiters.shift();
      // The slot passes straight to the next waiter; the count stays the same.
      if (next) next(this.releaser());
      else this.held--;
    };
  }
}

// Group commit: step commits of concurrent loops in one process that arrive
// within a few milliseconds share one transaction, so one fsync makes them all
// durable. Each write runs inside its own savepoint, so one that fails its
// fence (or any other check) rolls back alone and fails alone; every caller's
// promise settles only after the shared COMMIT returned.
import type { GroupCommitStats } from "./step-commit-slot";
import type { StepCommitResult, StepWrite } from "./step-write";
import { DatabaseClosedError } from "./step-errors";

/** How recent another loop's commit must be for a new one to wait for company. */
const COMPANY_HORIZON_MS = 20;

export type StepOutcome = { ok: true; value: StepCommitResult } | { ok: false; error: unknown };

/** Runs writes in one transaction; one outcome per write, in order. */
export interface StepDriver {
  runBatch(writes: StepWrite[]): Promise<StepOutcome[]>;
  close(): Promise<void>;
}

interface Waiting {
  write: StepWrite;
  resolve: (value: StepCommitResult) => void;
  reject: (error: unknown) => void;
}

/** How a write is queued. */
export interface CommitOptions {
  /**
   * An operator's control applied on an idle loop: it commits alone and ahead
   * of every queued runtime write, without waiting for company, so a click is
   * never held behind other loops' batches (issue 31: control -> other tab).
   */
  urgent?: boolean;
}

export class GroupCommitter {
  private queue: Waiting[] = [];
  /** Urgent writes: each one its own transaction, started before any queued batch. */
  private urgent: Waiting[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private due = false;
  private running = 0;
  private last: { loopId: string; at: number } | null = null;
  private closed = false;
  private readonly inFlight = new Set<Promise<unknown>>();

  /**
   * `windowMs`: how long the first write of a batch waits for company (0: every
   * write commits alone, at once). `maxBatch` flushes early; `concurrency` is
   * how many batches may be committing at once (SQLite has one writer anyway);
   * `urgentLanes`: how many urgent writes may commit beyond that (PostgreSQL:
   * its pool has connections to spare; SQLite: 0, an urgent write goes next).
   */
  constructor(
    private readonly driver: StepDriver,
    readonly windowMs: number,
    private readonly options: { maxBatch: number; concurrency: number; urgentLanes?: number },
    readonly stats: GroupCommitStats = { transactions: 0, writes: 0, largestBatch: 0 },
  ) {}

  commit(write: StepWrite, options: CommitOptions = {}): Promise<StepCommitResult> {
    if (this.closed) return Promise.reject(new DatabaseClosedError(write.loopId));
    if (options.urgent) {
      return new Promise((resolve, reject) => {
        this.urgent.push({ write, resolve, reject });
        this.kick();
      });
    }
    // Off: one write per transaction, still at most `concurrency` at once (a
    // pool's own queue would time out waiting under load and fail commits).
    if (this.windowMs <= 0) {
      return new Promise((resolve, reject) => {
        this.queue.push({ write, resolve, reject });
        this.due = true;
        this.kick();
      });
    }
    const now = performance.now();
    // Wait only when company is likely: another loop committed a moment ago,
    // or others are already waiting or committing. A loop running alone
    // (the common case on a quiet server) never pays the window.
    const companyLikely =
      this.queue.length > 0 ||
      this.running > 0 ||
      (this.last !== null && this.last.loopId !== write.loopId && now - this.last.at <= COMPANY_HORIZON_MS);
    this.last = { loopId: write.loopId, at: now };
    return new Promise((resolve, reject) => {
      this.queue.push({ write, resolve, reject });
      if (!companyLikely || this.queue.length >= this.options.maxBatch) this.due = true;
      else this.timer ??= setTimeout(this.onTimer, this.windowMs);
      this.kick();
    });
  }

  /**
   * Batches already committing finish; writes still queued fail with
   * DatabaseClosedError (nothing of them was stored), so no caller waits forever.
   */
  async close() {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const waiting of [...this.urgent.splice(0), ...this.queue.splice(0)])
      waiting.reject(new DatabaseClosedError(waiting.write.loopId));
    await Promise.allSettled([...this.inFlight]);
    await this.driver.close();
  }

  private onTimer = () => {
    this.timer = null;
    this.due = true;
    this.kick();
  };

  private count(size: number) {
    this.stats.transactions++;
    this.stats.writes += size;
    this.stats.largestBatch = Math.max(this.stats.largestBatch, size);
  }

  private kick() {
    const urgentLimit = this.options.concurrency + (this.options.urgentLanes ?? 0);
    while (this.urgent.length && this.running < urgentLimit) this.run(this.urgent.splice(0, 1));
    while (this.due && this.queue.length && this.running < this.options.concurrency) {
      const batch = this.queue.splice(0, this.windowMs <= 0 ? 1 : this.options.maxBatch);
      if (this.queue.length === 0) {
        this.due = false;
        if (this.timer) clearTimeout(this.timer);
        this.timer = null;
      }
      this.run(batch);
    }
  }

  private run(batch: Waiting[]) {
    this.running++;
    this.count(batch.length);
    const running: Promise<unknown> = this.driver
      .runBatch(batch.map((w) => w.write))
      .then(
        (outcomes) =>
          batch.forEach((w, i) => {
            const outcome = outcomes[i]!;
            if (outcome.ok) w.resolve(outcome.value);
            else w.reject(outcome.error);
          }),
        (error: unknown) => batch.forEach((w) => w.reject(error)),
      )
      .finally(() => {
        this.inFlight.delete(running);
        this.running--;
        // What arrived during that commit has waited already: it goes next.
        if (this.queue.length) this.due = true;
        this.kick();
      });
    this.inFlight.add(running);
  }
}

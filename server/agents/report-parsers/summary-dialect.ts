/**
 * A runner's default (human) output, read line by line: counts from its
 * final summary line, failing test names and first message lines from the
 * lines before it. One dialect per runner; see summary.ts for how one wins.
 */
import type { FailingTest } from "../../engine";
import { ReportBuilder } from "./report";

export abstract class SummaryDialect {
  abstract readonly id: string;
  protected readonly b = new ReportBuilder();
  /** Set once the runner's final summary was seen; only then are the counts known. */
  seen = false;
  /** The runner's output was recognised but its counts are not all there (failures can still be named). */
  partial = false;
  /** A failure waiting for its message line. */
  private waiting: { test: FailingTest; skip: RegExp | null } | null = null;

  abstract line(line: string): void;

  /** Names a failure now, or once its message line arrives. */
  protected named(test: FailingTest, opts: { awaitMessage?: boolean; skip?: RegExp } = {}) {
    this.release();
    if (opts.awaitMessage && !test.message) this.waiting = { test, skip: opts.skip ?? null };
    else this.b.note(test);
  }

  /** Gives a waiting failure its message: the first line that is not blank (or skippable). */
  protected messageLine(line: string): boolean {
    const w = this.waiting;
    if (!w) return false;
    const text = line.trim();
    if (text === "" || w.skip?.test(text)) return true;
    w.test.message = text.slice(0, 500);
    this.release();
    return true;
  }

  protected release() {
    if (this.waiting) this.b.note(this.waiting.test);
    this.waiting = null;
  }

  /** Counts "3 failed, 4 passed" style parts into the builder by a word→bucket map. */
  protected countParts(text: string, buckets: Record<string, "passed" | "failed" | "skipped" | "errored" | null>) {
    for (const m of text.matchAll(/(\d+) ([a-z][a-z ]*?)(?=[,|;)]|$| \(|\s*$)/gi)) {
      const word = m[2]!.trim().toLowerCase();
      const bucket = buckets[word];
      if (bucket) this.b[bucket] += Number(m[1]);
    }
  }

  protected reset() {
    this.b.passed = 0;
    this.b.failed = 0;
    this.b.skipped = 0;
    this.b.errored = 0;
  }

  result(): ReportBuilder | null {
    this.release();
    return this.seen || this.partial ? this.b : null;
  }
}

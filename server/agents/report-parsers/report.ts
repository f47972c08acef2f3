/**
 * What every report parser produces, and the one builder they share, so the
 * caps on failing tests (how many, how many characters) hold for all formats.
 */
import type { FailingTest, TestEvidence } from "../../engine";

export type ReportFormat = "tap" | "junit" | "json" | "go-json" | "libtest-log" | "summary";

/** One test's outcome in a structured report (the per-test inventory graded against the baseline). */
export type TestOutcome = "passed" | "failed" | "skipped" | "errored";

/** Tests kept per report: past this the inventory is marked incomplete rather than growing without bound. */
export const MAX_INVENTORY = 20_000;

/** The counts and capped failures, as the test evidence holds them. */
export interface ParsedReport extends Pick<
  TestEvidence,
  "passed" | "failed" | "skipped" | "errored" | "failures" | "moreFailures" | "warnings"
> {
  format: ReportFormat;
  /** Who wrote it, when the format says so: "vitest", "jest", "mocha", "pytest", "cargo", "go", "node". */
  source: string | null;
  /** The report reached its end (a plan met, a document closed, a final summary line). */
  complete: boolean;
  /**
   * Each test's id and outcome, from structured reports only (never from a
   * summary line the code under test could print); absent when the format has none.
   */
  tests?: Record<string, TestOutcome>;
}

export const MAX_FAILURES = 20;
/** Characters of names and messages kept for all failures together. */
export const MAX_FAILURE_CHARS = 4000;
const MESSAGE_LINES = 3;
const MESSAGE_CHARS = 500;

const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;

export const stripAnsi = (text: string) => text.replace(ANSI, "");

/** Stack frames and diff markers say where, not why. */
const NOISE = /^\s*(at\s|❯\s|>?\s*\d+\s*\||\|?\s*\^|[-+] Expected|[-+] Received)/;

/** The first few meaningful lines of a failure message. */
export function firstLines(message: unknown, lines = MESSAGE_LINES): string | undefined {
  if (typeof message !== "string") return undefined;
  const kept = stripAnsi(message)
    .split(/\r?\n/)
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== "" && !NOISE.test(l))
    .slice(0, lines)
    .map((l) => l.trim());
  const text = kept.join("\n").slice(0, MESSAGE_CHARS);
  return text === "" ? undefined : text;
}

export class ReportBuilder {
  passed = 0;
  failed = 0;
  skipped = 0;
  errored = 0;
  readonly warnings: string[] = [];
  private readonly failures: FailingTest[] = [];
  private moreFailures = 0;
  private chars = 0;
  private cases: Record<string, TestOutcome> | null = null;
  private casesOverflow = false;

  /** Records one test of the inventory; a repeated id gets a counter, so none hides another. */
  outcome(id: string, outcome: TestOutcome) {
    this.cases ??= {};
    if (Object.keys(this.cases).length >= MAX_INVENTORY) {
      this.casesOverflow = true;
      return;
    }
    let key = stripAnsi(id).trim() || "(unnamed test)";
    for (let n = 2; key in this.cases; n++) key = `${stripAnsi(id).trim()} #${n}`;
    this.cases[key] = outcome;
  }

  /** The format is a per-test report even when it lists no test (a run that reported none is an empty inventory). */
  perTest() {
    this.cases ??= {};
  }

  pass(n = 1) {
    this.passed += n;
  }

  skip(n = 1) {
    this.skipped += n;
  }

  fail(test: FailingTest) {
    this.failed++;
    this.keep(test);
  }

  /** A failure outside any single test: a file that did not load, a hook, a crash. */
  error(test: FailingTest) {
    this.errored++;
    this.keep(test);
  }

  /** Names a failing test whose count comes from elsewhere (a summary line). */
  note(test: FailingTest) {
    this.keep(test);
  }

  warn(message: string) {
    if (!this.warnings.includes(message)) this.warnings.push(message);
  }

  private keep(test: FailingTest) {
    const name = stripAnsi(test.name).trim() || "(unnamed test)";
    const cost = name.length + (test.message?.length ?? 0) + (test.file?.length ?? 0);
    if (this.failures.length >= MAX_FAILURES || this.chars + cost > MAX_FAILURE_CHARS) {
      this.moreFailures++;
      return;
    }
    this.chars += cost;
    const kept: FailingTest = { name };
    if (test.file) kept.file = test.file;
    if (test.message) kept.message = test.message;
    this.failures.push(kept);
  }

  get total() {
    return this.passed + this.failed + this.errored;
  }

  build(format: ReportFormat, complete: boolean, source: string | null = null): ParsedReport {
    return {
      format,
      source,
      passed: this.passed,
      failed: this.failed,
      skipped: this.skipped,
      errored: this.errored,
      failures: [...this.failures],
      moreFailures: this.moreFailures,
      complete,
      warnings: [...this.warnings],
      ...(this.cases && !this.casesOverflow ? { tests: { ...this.cases } } : {}),
    };
  }
}

/** A path as the project knows it: relative to the directory the check ran in. */
export function projectPath(file: unknown, cwd: string | undefined): string | undefined {
  if (typeof file !== "string" || file === "") return undefined;
  let path = file.startsWith("file://") ? decodeURIComponent(file.slice(7)) : file;
  if (cwd && path.startsWith(cwd.endsWith("/") ? cwd : `${cwd}/`)) path = path.slice(cwd.length).replace(/^\/+/, "");
  return path;
}

/**
 * TAP 13/14 through node-tap's own parser (tap-parser), fed line by line so
 * a report of any size streams through. Counts leaf tests: a test point that
 * closes a subtest only summarises it (node --test and vitest nest suites
 * this way). Test points that break the numbering are program output, not
 * tests (a test that logs "ok 1 - ..." must not count as one).
 */
import { Parser, type Result } from "tap-parser";
import type { FailingTest } from "../../engine";
import { firstLines, projectPath, ReportBuilder, type ParsedReport } from "./report";

interface Level {
  parent: Level | null;
  path: string[];
  nextId: number;
  usesIds: boolean;
  /** The subtest that just ended: the next test point at this level summarises it. */
  closing: Level | null;
  points: number;
  leaves: number;
  bad: number;
}

type Diag = Record<string, unknown> | null;

function diagMessage(diag: Diag): string | undefined {
  if (!diag) return undefined;
  const error = diag.error;
  if (error && typeof error === "object") return firstLines((error as { message?: unknown }).message);
  return firstLines(error) ?? firstLines(diag.message) ?? firstLines(diag.stack);
}

function diagFile(diag: Diag, cwd: string | undefined): string | undefined {
  if (!diag) return undefined;
  const at = diag.at ?? diag.location ?? diag.file;
  if (typeof at === "string") return projectPath(at, cwd);
  if (at && typeof at === "object") return projectPath((at as { file?: unknown }).file, cwd);
  return undefined;
}

/** Node writes some messages as `backquoted` YAML, which no YAML parser reads: take the fields by line. */
function lenientDiag(raw: string): Diag {
  const field = (names: string) => {
    const m = new RegExp(`^\\s*(?:${names}):\\s*(.+)$`, "m").exec(raw);
    return m ? m[1]!.trim().replace(/^(['"`])([\s\S]*)\1$/, "$2") : undefined;
  };
  const error = field("error|message");
  const at = field("location|at|file");
  return error || at ? { ...(error ? { error } : {}), ...(at ? { at } : {}) } : null;
}

export class TapCollector {
  private readonly parser = new Parser({ passes: false });
  private readonly b = new ReportBuilder();
  private readonly root: Level = TapCollector.level(null, []);
  private plan: { start: number; end: number } | null = null;
  private bailout: string | null = null;
  private ignored = 0;
  /** A diagnostics block tap-parser could not read, passed on as extra output just before its test point. */
  private garbage: string | null = null;
  private sawVersion = false;
  /** A failure whose message may follow as plain indented lines (mocha's TAP). */
  private pending: { test: FailingTest; lines: string[]; asError: boolean } | null = null;
  private finished: ParsedReport | null = null;

  constructor(private readonly cwd?: string) {
    this.attach(this.parser, this.root);
    // tap-parser invents a version and a 1..0 plan for a stream without test points: not evidence of TAP.
    this.parser.on("version", () => (this.sawVersion ||= !this.parser.syntheticPlan));
    this.parser.on("plan", (p: { start: number; end: number }) => {
      if (!this.parser.syntheticPlan) this.plan = p;
    });
    this.parser.on("bailout", (reason: string) => (this.bailout = reason || "bail out"));
    this.parser.on("extra", (line: string) => {
      if (/^---\s*\n/.test(line) && this.pending) this.fillFrom(this.pending.test, lenientDiag(line));
      // Unreadable diagnostics of a nested point arrive before the point itself.
      else if (/^\s+---\s*\n/.test(line)) this.garbage = line;
      else if (this.pending && this.pending.lines.length < 6) this.pending.lines.push(line);
    });
  }

  private static level(parent: Level | null, path: string[]): Level {
    return { parent, path, nextId: 1, usesIds: false, closing: null, points: 0, leaves: 0, bad: 0 };
  }

  private attach(parser: Parser, level: Level) {
    parser.on("child", (child: Parser) => {
      const sub = TapCollector.level(level, child.name ? [...level.path, child.name] : level.path);
      this.attach(child, sub);
      level.closing = sub;
    });
    parser.on("assert", (r: Result) => this.onAssert(level, r));
  }

  private counts(level: Level, r: Result): boolean {
    if (r.id > 0) {
      if (r.id !== level.nextId) return false;
      level.nextId = r.id + 1;
      level.usesIds = true;
      return true;
    }
    return !level.usesIds;
  }

  private onAssert(level: Level, r: Result) {
    this.flush();
    const garbage = this.garbage;
    this.garbage = null;
    const closing = level.closing;
    level.closing = null;
    if (!this.counts(level, r)) {
      this.ignored++;
      return;
    }
    level.points++;
    const diag = (r.diag as Diag) ?? (garbage ? lenientDiag(garbage) : null);
    const name = [...level.path, r.name || `test ${r.id}`].join(" > ");
    const test: FailingTest = { name };
    this.fillFrom(test, diag);
    if (closing && closing.leaves > 0) {
      // A summary point: its subtests were counted. Only a failure none of them explains counts.
      if (!r.ok && !r.skip && !r.todo && closing.bad === 0) this.mark(level, test, true);
      return;
    }
    for (let l: Level | null = level; l; l = l.parent) l.leaves++;
    this.b.outcome(name, r.skip || r.todo ? "skipped" : r.ok ? "passed" : "failed");
    if (r.skip || r.todo) this.b.skip();
    else if (r.ok) this.b.pass();
    else this.mark(level, test, false);
  }

  private fillFrom(test: FailingTest, diag: Diag) {
    const file = diagFile(diag, this.cwd);
    const message = diagMessage(diag);
    if (file && !test.file) test.file = file;
    if (message && !test.message) test.message = message;
  }

  private mark(level: Level, test: FailingTest, asError: boolean) {
    for (let l: Level | null = level; l; l = l.parent) l.bad++;
    this.pending = { test, lines: [], asError };
  }

  private flush() {
    const p = this.pending;
    if (!p) return;
    this.pending = null;
    if (!p.test.message) {
      const message = firstLines(p.lines.join(""));
      if (message) p.test.message = message;
    }
    if (p.asError) this.b.error(p.test);
    else this.b.fail(p.test);
  }

  /** One chunk of the stream (lines with their newlines). */
  write(chunk: string) {
    this.parser.write(chunk);
  }

  /** True once the stream looked like TAP: a version line, a plan, or numbered test points. */
  get looksLikeTap(): boolean {
    return this.sawVersion || this.plan !== null || this.root.usesIds;
  }

  finish(): ParsedReport | null {
    if (this.finished) return this.finished;
    this.parser.end();
    this.flush();
    if (!this.looksLikeTap && this.root.points === 0) return null;
    const complete = this.plan !== null || this.bailout !== null;
    if (this.plan) {
      const missing = this.plan.end - this.plan.start + 1 - this.root.points;
      if (missing > 0) {
        this.b.errored += missing - 1;
        this.b.error({ name: `${missing} planned test${missing === 1 ? "" : "s"} never reported` });
      }
    }
    if (this.bailout) this.b.error({ name: "Bail out!", message: this.bailout });
    if (this.ignored > 0)
      this.b.warn(
        `ignored ${this.ignored} line${this.ignored === 1 ? "" : "s"} that looked like test results but broke the TAP numbering (test output)`,
      );
    this.finished = this.b.build("tap", complete);
    return this.finished;
  }
}

export function parseTap(text: string, cwd?: string): ParsedReport | null {
  const collector = new TapCollector(cwd);
  collector.write(text.endsWith("\n") ? text : `${text}\n`);
  return collector.finish();
}

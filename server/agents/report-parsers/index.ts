/**
 * Test reports: one entry point for a report file and one for a command's
 * streamed stdout. Formats are tried from the most to the least structured:
 * JSON, JUnit XML, go test -json, TAP, then a runner's summary line.
 */
import { GoJsonCollector, parseGoJson } from "./go-json";
import { parseJsonReport } from "./json";
import { parseJunit } from "./junit";
import { parseLibtestLog } from "./libtest-log";
import type { ParsedReport } from "./report";
import { SummaryScanner, parseSummary } from "./summary";
import { parseTap, TapCollector } from "./tap";

export type { ParsedReport } from "./report";
export type ExpectedFormat = "auto" | "tap" | "junit" | "json" | "go-json" | "libtest-log";

export interface ParseOptions {
  /** The directory the check ran in: paths in reports are shown relative to it. */
  cwd?: string;
  /** The detected runner, whose summary dialect is tried first. */
  runner?: string | null;
}

const usableTap = (r: ParsedReport | null) => (r && r.complete ? r : null);

/** A whole report (a file, or stdout that was kept complete). */
export function parseReport(text: string, format: ExpectedFormat, opts: ParseOptions = {}): ParsedReport | null {
  switch (format) {
    case "tap":
      return parseTap(text, opts.cwd);
    case "junit":
      return parseJunit(text, opts.cwd);
    case "json":
      return parseJsonReport(text, opts.cwd) ?? parseGoJson(text);
    case "go-json":
      return parseGoJson(text);
    case "libtest-log":
      return parseLibtestLog(text);
    case "auto":
      return (
        parseJsonReport(text, opts.cwd) ??
        parseJunit(text, opts.cwd) ??
        parseGoJson(text) ??
        usableTap(parseTap(text, opts.cwd)) ??
        parseSummary(text, opts.runner)
      );
  }
}

/**
 * Reads a command's stdout as it streams, past any output cap: TAP, go's
 * event stream and the runners' summary lines are all line formats. JSON and
 * XML on stdout can only be read from the kept (capped) text.
 */
export class OutputScanner {
  private readonly tap: TapCollector;
  private readonly go = new GoJsonCollector();
  private readonly summary = new SummaryScanner();

  constructor(private readonly opts: ParseOptions = {}) {
    this.tap = new TapCollector(opts.cwd);
  }

  line(line: string) {
    this.tap.write(`${line}\n`);
    this.go.line(line);
    this.summary.line(line);
  }

  /** Lines that were not on stdout (jest prints its results on stderr). */
  extraLines(text: string) {
    for (const line of text.split("\n")) this.summary.line(line);
  }

  /**
   * The best report. `stdout` is the kept (possibly capped) text: a JSON or XML
   * report in it counts only if it is whole; the line formats come from the stream.
   */
  finish(format: ExpectedFormat, stdout: string): ParsedReport | null {
    const go = this.go.finish();
    const tap = this.tap.finish();
    const summary = this.summary.finish(this.opts.runner);
    switch (format) {
      case "tap":
        return tap;
      case "go-json":
        return go;
      // Only ever a file the check's cargo runner wrote: stdout has the summary lines instead.
      case "libtest-log":
        return summary;
      case "junit":
        return parseJunit(stdout, this.opts.cwd);
      case "json":
        return parseJsonReport(stdout, this.opts.cwd) ?? go;
      case "auto": {
        const structured = parseJsonReport(stdout, this.opts.cwd) ?? parseJunit(stdout, this.opts.cwd);
        if (structured?.complete) return structured;
        return go ?? usableTap(tap) ?? summary ?? structured ?? (tap?.failures.length ? tap : null);
      }
    }
  }
}

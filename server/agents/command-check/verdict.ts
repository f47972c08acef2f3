/**
 * From a parsed report and how the command ended to a score, a reason and
 * the evidence kept with the iteration. The rules, in order:
 * - a timed-out check scores 0;
 * - no complete report: the exit code decides (0 → 1, else 0), except that
 *   output cut at the cap never scores (0, "no counted evidence");
 * - a complete report: passed / (passed + failed + errored);
 * - the exit code and the counts must agree, else the stricter wins: all
 *   passed but a non-zero exit counts the run as one more failure; failures
 *   with exit 0 score by the counts. The reason says which happened.
 */
import type { FailingTest, ScoreResult, TestEvidence } from "../../engine";
import { stripAnsi, type ParsedReport } from "../report-parsers/report";

export interface VerdictInput {
  report: ParsedReport | null;
  /** The report the check planned to read ("vitest's JSON report, ..."), null when none was planned. */
  expected: string | null;
  /** The planned report file was never written. */
  reportMissing: boolean;
  runner: string | null;
  exitCode: number | null;
  exitSignal: string | null;
  timedOut: boolean;
  timeoutSeconds: number;
  /** Stdout was cut at the cap (only matters for reports read from the kept text). */
  truncated: boolean;
  /** The report came from a file (so the stdout cap did not touch it). */
  fromFile: boolean;
  maxOutputBytes: number;
  stdoutTail: string;
  stderrTail: string;
  /** Said about the run whatever its outcome (a substituted command). */
  notes?: string[];
}

const ERROR_LINES = 15;
const ERROR_CHARS = 2000;

const STACK = /^\s+at\s|^\s+\d+:\s/;

/** The part of an output that says what went wrong: from a few lines before the first error line, else the end. */
function errorWindow(text: string): string {
  const lines = stripAnsi(text)
    .split("\n")
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== "" && !/^npm (warn|notice)/i.test(l) && !STACK.test(l));
  const at = lines.findIndex((l) => /\b[A-Z]\w*(Error|Exception)\b|^\s*error(\[\w+\])?:/.test(l));
  const window = at === -1 ? lines.slice(-ERROR_LINES) : lines.slice(Math.max(0, at - 4), at - 4 + ERROR_LINES);
  return window.join("\n").slice(0, ERROR_CHARS);
}

/** What the runner itself said went wrong: stderr first, else stdout. */
function runError(v: VerdictInput): string | undefined {
  const text = errorWindow(v.stderrTail) || errorWindow(v.stdoutTail);
  return text === "" ? undefined : text;
}

/** The line of an error output that says what went wrong. */
function headline(error: string): string {
  const lines = error.split("\n").map((l) => l.trim());
  const line = lines.find((l) => /error|exception|cannot|could not|not found|failed/i.test(l)) ?? lines.at(-1) ?? "";
  return line.slice(0, 160);
}

/** A line explaining a failure after the tests (a coverage threshold), if the output has one. */
function afterTestsHint(v: VerdictInput): string | undefined {
  const lines = stripAnsi(`${v.stdoutTail}\n${v.stderrTail}`).split("\n");
  const hit = lines.find((l) => /coverage.*(threshold|not met|does not meet)|threshold.*coverage/i.test(l));
  return hit?.trim().slice(0, 200);
}

const shortName = (f: FailingTest) => {
  const leaf = f.name.split(" > ").at(-1)!.trim();
  return leaf.length > 60 ? `${leaf.slice(0, 59)}…` : leaf;
};

function failedPart(failures: FailingTest[], bad: number): string {
  if (bad === 0) return "";
  const names = failures.slice(0, 3).map(shortName);
  const more = bad - names.length;
  return `; ${bad} failed${names.length ? `: ${names.join(", ")}` : ""}${more > 0 && names.length ? `, +${more} more` : ""}`;
}

export function verdict(v: VerdictInput): Required<Pick<ScoreResult, "score" | "reason" | "tests">> {
  const exit =
    v.exitCode !== null ? `exit ${v.exitCode}` : v.timedOut ? "timed out" : `killed by ${v.exitSignal ?? "a signal"}`;
  const report = v.report;
  const warnings = [...(v.notes ?? []), ...(report?.warnings ?? [])];
  const evidence = (r: ParsedReport | null, counted: boolean, extra: Partial<TestEvidence> = {}): TestEvidence => ({
    passed: r?.passed ?? 0,
    failed: r?.failed ?? 0,
    skipped: r?.skipped ?? 0,
    errored: r?.errored ?? 0,
    failures: r?.failures ?? [],
    moreFailures: r?.moreFailures ?? 0,
    format: r?.format ?? "exit-code",
    runner: v.runner ?? r?.source ?? null,
    counted,
    exitCode: v.exitCode,
    warnings,
    ...extra,
  });
  const label = (r: ParsedReport) => `${v.runner ?? r.source ?? ""} ${r.format}`.trim();

  if (v.timedOut) {
    warnings.push(`the check was stopped after ${v.timeoutSeconds}s`);
    const error = runError(v);
    return {
      score: 0,
      reason: `timed out after ${v.timeoutSeconds}s`,
      tests: evidence(report, false, error ? { error } : {}),
    };
  }

  if (!report || !report.complete) {
    if (v.reportMissing && v.expected) warnings.push(`${v.expected} was not written`);
    else if (v.expected && !report) warnings.push(`report not understood: expected ${v.expected}`);
    if (v.truncated)
      warnings.push(
        `output cut at ${v.maxOutputBytes} bytes before a complete report: no counted evidence from this check (use a report file, or raise maxOutputBytes)`,
      );
    const error = v.exitCode === 0 ? undefined : runError(v);
    const extra = error ? { error } : {};
    if (v.truncated)
      return {
        score: 0,
        reason: `no counted evidence: output truncated before a complete report (${exit})`,
        tests: evidence(report, false, extra),
      };
    if (v.exitCode === 0)
      return { score: 1, reason: `${exit}; no test report, scored by the exit code`, tests: evidence(report, false) };
    return {
      score: 0,
      reason: `${exit}; no test results${error ? `: ${headline(error)}` : ""}`,
      tests: evidence(report, false, extra),
    };
  }

  if (v.truncated && !v.fromFile)
    warnings.push(
      `stdout passed the ${v.maxOutputBytes}-byte cap; the ${report.format} report was read from the whole stream`,
    );
  const bad = report.failed + report.errored;
  const total = report.passed + bad;
  const skipped = report.skipped ? `, ${report.skipped} skipped` : "";
  if (total === 0) {
    warnings.push("the report lists no tests that ran: nothing counts as evidence of passing");
    const error = v.exitCode === 0 ? undefined : runError(v);
    return {
      score: 0,
      reason: `no tests ran${skipped} (${label(report)}, ${exit})`,
      tests: evidence(report, true, error ? { error } : {}),
    };
  }
  if (v.exitCode !== 0 && bad === 0) {
    const hint = afterTestsHint(v);
    warnings.push(
      `every test passed but the command ended with ${exit}${hint ? ` (${hint})` : ""}: the run counts as one more failure`,
    );
    const error = hint ?? runError(v);
    return {
      score: report.passed / (total + 1),
      reason: `${report.passed}/${total} tests passed${skipped}, but ${exit}${hint ? `: ${hint}` : " after the tests"}; not a pass (${label(report)})`,
      tests: evidence(report, true, { errored: report.errored + 1, ...(error ? { error } : {}) }),
    };
  }
  if (v.exitCode === 0 && bad > 0)
    warnings.push(`the command exited 0 although ${bad} test${bad === 1 ? "" : "s"} failed: scored by the counts`);
  // Nothing passed and the run failed: what the runner printed often says more than the report (a load error).
  const error = report.passed === 0 && v.exitCode !== 0 ? runError(v) : undefined;
  return {
    score: report.passed / total,
    reason: `${report.passed}/${total} passed${skipped}${failedPart(report.failures, bad)} (${label(report)}, ${exit})`,
    tests: evidence(report, true, error ? { error } : {}),
  };
}

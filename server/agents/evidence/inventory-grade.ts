/**
 * Grading against the baseline inventory, as benchmark harnesses do: the
 * tests failing on the base commit are the targets (FAIL_TO_PASS), the
 * passing ones must stay passing (PASS_TO_PASS). Completion needs every line
 * to hold: every target passes; no baseline-passing test fails or
 * disappears; no fewer tests ran than at baseline; no more were skipped; at
 * least one ran. A check without a per-test inventory is graded on its exit
 * code and counts, and says so.
 */
import type { TestOutcome } from "../report-parsers/report";

export interface RunCounts {
  passed: number;
  failed: number;
  errored: number;
  skipped: number;
  exitCode: number | null;
}

export interface BaselineInventory {
  /** Each test's outcome at the base commit; null: the check has no per-test report. */
  tests: Record<string, TestOutcome> | null;
  counts: RunCounts;
  /** Why per-test grading is not possible, when it is not. */
  exitCodeOnly?: string;
  /** The baseline run could not be used (crash, hang, zero tests): no iteration can be graded. */
  unusable?: string;
}

export interface GradeLine {
  ok: boolean;
  text: string;
}

export interface InventoryGrade {
  lines: GradeLine[];
  ok: boolean;
  /** A line that says the evidence shrank (tests gone, fewer ran, more skipped, none ran): never a partial score. */
  shrank: boolean;
}

const ran = (c: RunCounts) => c.passed + c.failed + c.errored;
const names = (ids: string[]) => {
  const shown = ids.slice(0, 3).map((id) => id.split("::").at(-1) ?? id);
  return `${shown.join(", ")}${ids.length > 3 ? `, +${ids.length - 3} more` : ""}`;
};

export function gradeAgainstBaseline(
  baseline: BaselineInventory,
  now: { tests: Record<string, TestOutcome> | null; counts: RunCounts },
): InventoryGrade {
  const lines: GradeLine[] = [];
  let shrank = false;
  if (baseline.tests && now.tests) {
    const ids = Object.keys(baseline.tests);
    const targets = ids.filter((id) => baseline.tests![id] === "failed" || baseline.tests![id] === "errored");
    const kept = ids.filter((id) => baseline.tests![id] === "passed");
    const fixed = targets.filter((id) => now.tests![id] === "passed");
    const notFixed = targets.filter((id) => now.tests![id] !== "passed");
    lines.push({
      ok: fixed.length === targets.length,
      text:
        targets.length === 0
          ? "no failing tests at baseline (no targets)"
          : `${fixed.length} of ${targets.length} targets pass${notFixed.length ? ` (not yet: ${names(notFixed)})` : ""}`,
    });
    const broken = kept.filter((id) => now.tests![id] !== undefined && now.tests![id] !== "passed");
    const gone = kept.filter((id) => now.tests![id] === undefined);
    if (gone.length > 0) shrank = true;
    lines.push({
      ok: broken.length === 0 && gone.length === 0,
      text: `${kept.length - broken.length - gone.length} of ${kept.length} kept${broken.length ? `; broke ${names(broken)}` : ""}${gone.length ? `; disappeared ${names(gone)}` : ""}`,
    });
    const lostTargets = targets.filter((id) => now.tests![id] === undefined);
    if (lostTargets.length > 0) {
      shrank = true;
      lines.push({ ok: false, text: `targets disappeared: ${names(lostTargets)}` });
    }
  } else {
    lines.push({
      ok: now.counts.exitCode === 0 && now.counts.failed + now.counts.errored === 0,
      text: `exit-code grading: ${baseline.exitCodeOnly ?? "no per-test inventory"}; exit ${now.counts.exitCode ?? "none"}${now.counts.failed + now.counts.errored ? `, ${now.counts.failed + now.counts.errored} failing` : ""}`,
    });
  }
  const ranNow = ran(now.counts);
  const ranBase = ran(baseline.counts);
  const ranOk = ranNow >= ranBase && ranNow > 0;
  if (!ranOk) shrank = true;
  lines.push({
    ok: ranOk,
    text: ranNow === 0 ? `no tests ran (baseline ${ranBase})` : `${ranNow} ran, baseline ${ranBase}`,
  });
  const skippedOk = now.counts.skipped <= baseline.counts.skipped;
  if (!skippedOk) shrank = true;
  lines.push({
    ok: skippedOk,
    text: `${now.counts.skipped} skipped, baseline ${baseline.counts.skipped}`,
  });
  return { lines, ok: lines.every((l) => l.ok), shrank };
}

/** The baseline run's problem that stops grading (nothing can be compared against it), or null. */
export function baselineProblem(counts: RunCounts, timedOut: boolean, reportComplete: boolean): string | null {
  if (timedOut) return "the check timed out on the base commit";
  if (reportComplete && ran(counts) === 0) return "the check found zero tests on the base commit";
  if (!reportComplete && counts.exitCode === null) return "the check was killed on the base commit";
  // A shell's "command not found" / "not executable": the check cannot run, whatever the agent does.
  if (!reportComplete && counts.exitCode === 127)
    return "the check's command was not found on the base commit (exit 127)";
  if (!reportComplete && counts.exitCode === 126)
    return "the check's command could not be run on the base commit (exit 126)";
  return null;
}

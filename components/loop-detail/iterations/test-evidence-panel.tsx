"use client";
// What a command check's tests said, in the iteration details: counts, each
// failing test with its file and first message lines, warnings, and the
// runner's own error when it failed without a usable report.
import { Badge } from "@/components/ui/badge";
import { formatScore } from "@/components/loops/format";
import { evidenceSummary, type CheckView, type GradingView } from "./test-evidence";

/** The verdict on the clean tree, one line per requirement, and what the agent tampered with. */
function Grading({ g, check, iteration }: { g: GradingView; check: string; iteration: number }) {
  return (
    <div className="space-y-1 text-xs" data-testid="grading">
      <ul aria-label={`Verdict of ${check} in iteration ${iteration}`} className="space-y-0.5">
        {g.lines.map((l) => (
          <li
            key={l.text}
            data-testid="verdict-line"
            className={l.ok ? "text-emerald-800 dark:text-emerald-300" : "text-rose-800 dark:text-rose-300"}
          >
            {l.ok ? "✓" : "✗"} {l.text}
          </li>
        ))}
      </ul>
      <p className="text-slate-600 dark:text-slate-400">
        Graded on a clean tree of {g.sha.slice(0, 12) || "the snapshot"} (
        {g.mode === "per-test" ? "per test, against the baseline" : "by exit code: no per-test report"})
        {g.notGraded.length > 0 ? `; new tests not graded: ${g.notGraded.join(", ")}` : ""}
      </p>
      {g.tampering.length > 0 && (
        <ul aria-label={`Tampering in iteration ${iteration}`} className="space-y-0.5">
          {g.tampering.map((t) => (
            <li
              key={`${t.what}|${t.how}`}
              data-testid="tampering"
              className="rounded bg-amber-100 px-1.5 py-0.5 text-amber-900 dark:bg-amber-950/50 dark:text-amber-200"
            >
              ⚑ <span className="font-medium">{t.what}</span>: {t.how}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Counts({ c }: { c: CheckView }) {
  const t = c.tests;
  const total = t.passed + t.failed + t.errored;
  return (
    <p className="text-sm">
      <span className="font-medium">{c.check}</span> <span className="tabular-nums">{formatScore(c.score)}</span>{" "}
      {t.counted ? (
        <span className="tabular-nums">
          — {t.passed}/{total} passed
          {t.failed ? `, ${t.failed} failed` : ""}
          {t.errored ? `, ${t.errored} errored` : ""}
          {t.skipped ? `, ${t.skipped} skipped` : ""}
        </span>
      ) : (
        <Badge tone="warn">no counted evidence</Badge>
      )}{" "}
      <span className="text-xs text-slate-600 dark:text-slate-400">
        ({[t.runner, t.format, t.exitCode === null ? null : `exit ${t.exitCode}`].filter(Boolean).join(", ")})
      </span>
    </p>
  );
}

export function TestEvidencePanel({ checks, iteration }: { checks: CheckView[]; iteration: number }) {
  return (
    <div className="space-y-3" data-testid="test-evidence">
      {checks.map((c) => (
        <div key={c.check} className="space-y-1">
          <Counts c={c} />
          {c.tests.grading && <Grading g={c.tests.grading} check={c.check} iteration={iteration} />}
          {c.tests.failures.length > 0 && (
            <ul className="space-y-1 text-xs" aria-label={`Failing tests of ${c.check} in iteration ${iteration}`}>
              {c.tests.failures.map((f, i) => (
                <li
                  key={i}
                  data-testid="failing-test"
                  className="rounded border border-rose-200 px-2 py-1 dark:border-rose-900"
                >
                  <span className="font-medium text-rose-800 dark:text-rose-300">{f.name}</span>
                  {f.file && <span className="text-slate-500 dark:text-slate-400"> · {f.file}</span>}
                  {f.message && (
                    <pre className="mt-0.5 whitespace-pre-wrap break-words font-mono text-slate-700 dark:text-slate-300">
                      {f.message}
                    </pre>
                  )}
                </li>
              ))}
              {c.tests.moreFailures > 0 && (
                <li className="text-slate-500 dark:text-slate-400">… and {c.tests.moreFailures} more failing</li>
              )}
            </ul>
          )}
          {c.tests.error && (
            <pre
              aria-label={`Error output of ${c.check} in iteration ${iteration}`}
              className="max-h-48 overflow-auto whitespace-pre-wrap break-words rounded-lg border border-rose-200 bg-rose-50 p-2 text-xs dark:border-rose-900 dark:bg-rose-950/40"
            >
              {c.tests.error}
            </pre>
          )}
          {c.tests.warnings.length > 0 && (
            <ul className="list-inside list-disc text-xs text-amber-800 dark:text-amber-300">
              {c.tests.warnings.map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
          )}
        </div>
      ))}
    </div>
  );
}

/** The one-line version for the timeline row. */
export function TestEvidenceBadge({ checks }: { checks: CheckView[] }) {
  const worst = checks.find((c) => !c.tests.counted || c.tests.failed + c.tests.errored > 0);
  if (!worst) return null;
  const text = evidenceSummary(worst.tests);
  return (
    <span
      data-testid="test-summary"
      title={worst.tests.failures.map((f) => f.name).join("\n") || text}
      className="max-w-md truncate text-xs text-rose-800 dark:text-rose-300"
    >
      {text}
    </span>
  );
}

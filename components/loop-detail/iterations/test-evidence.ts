// Reads the test evidence a command check stored with its score, for the
// timeline: a one-line summary ("3 failed: plain failure, ünïcödé…, special
// chars…") and the full list for the details panel.
import type { IterationRow } from "@/components/shared/api-types";

// The router's types: the server defines the evidence once (server/engine ports, stored by step-rows).
type ScoreCell = IterationRow["scores"][string];
export type TestEvidenceView = NonNullable<ScoreCell["tests"]>;
export type GradingView = NonNullable<TestEvidenceView["grading"]>;

export interface CheckView {
  check: string;
  score: number;
  reason: string | null;
  tests: TestEvidenceView;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

/** The checks of an iteration that carry test evidence, in scorer order. */
export function checksWithEvidence(scores: unknown): CheckView[] {
  if (!isObj(scores)) return [];
  return Object.entries(scores).flatMap(([check, cell]) => {
    if (!isObj(cell) || !isObj(cell.tests)) return [];
    const t = cell.tests as unknown as TestEvidenceView;
    if (typeof t.passed !== "number" || !Array.isArray(t.failures)) return [];
    return [
      {
        check,
        score: typeof cell.score === "number" ? cell.score : 0,
        reason: typeof cell.reason === "string" ? cell.reason : null,
        tests: { ...t, warnings: Array.isArray(t.warnings) ? t.warnings : [] },
      },
    ];
  });
}

/** A test's own name (the last part of "suite > inner > name"), cut at a word near `max` characters. */
export function shortTestName(name: string, max = 16): string {
  const leaf = name.split(" > ").at(-1)!.trim();
  if (leaf.length <= max) return leaf;
  const cut = leaf.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return `${(space > 4 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** "3 failed: plain failure, ünïcödé 名前…, special chars…" — or what stands in for it. */
export function evidenceSummary(t: TestEvidenceView, names = 3): string {
  const bad = t.failed + t.errored;
  if (!t.counted) {
    if (t.error)
      return `no test report: ${
        t.error
          .split("\n")
          .find((l) => l.trim() !== "")
          ?.trim() ?? "the run failed"
      }`;
    return t.failures.length > 0 ? `${t.failures.length} failed (uncounted)` : "no test report";
  }
  if (bad === 0) return `${t.passed} passed${t.skipped ? `, ${t.skipped} skipped` : ""}`;
  const shown = t.failures.slice(0, names).map((f) => shortTestName(f.name));
  const more = bad - shown.length;
  const label = t.errored > 0 && t.failed === 0 ? "errored" : "failed";
  return `${bad} ${label}${shown.length ? `: ${shown.join(", ")}` : ""}${shown.length && more > 0 ? ` +${more}` : ""}`;
}

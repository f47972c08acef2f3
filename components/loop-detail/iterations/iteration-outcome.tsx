"use client";
// Why an iteration did not move the loop forward (its failure kind), the
// question it asked, and what the agent process left behind (exit code,
// signal, stderr tail, parser warnings, where the cost came from).
import type { IterationRow } from "@/components/shared/api-types";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { evidenceOutcomeText } from "./row-text";
import { checksWithEvidence } from "./test-evidence";

/** What each failure kind means, as the badge's text and tooltip (the legend). */
export const FAILURE_KINDS: Record<string, { label: string; tone: BadgeTone; legend: string }> = {
  timeout: { label: "timed out", tone: "bad", legend: "the attempt or the whole iteration ran out of time" },
  crash: { label: "crashed", tone: "bad", legend: "the agent exited non-zero, was killed or could not start" },
  agent_error: { label: "agent error", tone: "bad", legend: "the agent CLI reported an error in its result" },
  max_turns: { label: "turn limit", tone: "bad", legend: "the agent stopped at its turn limit" },
  rate_limit: {
    label: "rate limited",
    tone: "warn",
    legend: "a transient rate limit (429, overloaded); the loop backs off and tries again",
  },
  usage_limit: {
    label: "usage limit",
    tone: "warn",
    legend: "the plan's usage quota; the loop waits for its reset",
  },
  malformed: {
    label: "malformed reply",
    tone: "bad",
    legend: "the agent's output was not its CLI's protocol; not retried",
  },
  no_result: {
    label: "no result",
    tone: "bad",
    legend: "the agent exited 0 but its stream ended without a final result; retried",
  },
  error: { label: "error", tone: "bad", legend: "the agent call failed" },
  interrupted: { label: "interrupted", tone: "warn", legend: "an operator kill, a cancel or a health stop" },
  invalid_output: { label: "invalid output", tone: "bad", legend: "the output failed its validators" },
  asked_question: { label: "asked a question", tone: "warn", legend: "the agent ended its turn asking the operator" },
  evidence_failed: {
    label: "ran · evidence failed",
    tone: "warn",
    legend: "the agent ran; the evidence says not done",
  },
  no_evidence: { label: "ran · no evidence", tone: "neutral", legend: "nothing could say whether the goal is met" },
};

/**
 * The status badge: an agent run that succeeded with failing evidence is amber, not a green "succeeded",
 * and says what happened (its score against `previousMean`, the tests still failing).
 */
export function statusBadge(
  it: Pick<IterationRow, "status" | "failureKind"> & Partial<Pick<IterationRow, "meanScore" | "scores">>,
  previousMean?: number | null,
): { label: string; tone: BadgeTone } {
  if (it.status === "succeeded" && it.failureKind === "evidence_failed") {
    const checks = checksWithEvidence(it.scores);
    const failingTests = checks.length ? checks.reduce((n, c) => n + c.tests.failed + c.tests.errored, 0) : null;
    return {
      label: evidenceOutcomeText({ meanScore: it.meanScore ?? null, failingTests }, previousMean),
      tone: "warn",
    };
  }
  if (it.status === "succeeded" && it.failureKind === "no_evidence")
    return { label: "ran · no evidence", tone: "neutral" };
  const tone: Record<string, BadgeTone> = {
    succeeded: "good",
    failed: "bad",
    error: "bad",
    interrupted: "warn",
    rate_limited: "warn",
  };
  return { label: it.status.replace(/_/g, " "), tone: tone[it.status] ?? "neutral" };
}

/** The status badges before the failure kinds, for the legend. */
const STATUS_LEGEND: { label: string; tone: BadgeTone; legend: string }[] = [
  { label: "succeeded", tone: "good", legend: "the agent ran and the evidence says the goal is met" },
  {
    label: "improved 0.40 → 0.60; 2 tests still failing",
    tone: "warn",
    legend:
      "the agent ran; the evidence says not done: how the score moved since the iteration before, what still fails",
  },
  { label: "ran · no evidence", tone: "neutral", legend: "the agent ran; nothing could say whether it is done" },
  { label: "failed", tone: "bad", legend: "the output failed its validators" },
  { label: "error", tone: "bad", legend: "the agent call failed (see its failure kind)" },
];

/** What every badge in the timeline means: statuses, then failure kinds. */
export function BadgeLegend() {
  // A status and a failure kind may share a label ("error"): the first explanation is kept.
  const entries = [...STATUS_LEGEND, ...Object.values(FAILURE_KINDS)].filter(
    (e, i, all) => all.findIndex((o) => o.label === e.label) === i,
  );
  return (
    <details className="mb-2 text-sm" data-testid="badge-legend">
      <summary className="cursor-pointer text-slate-600 dark:text-slate-400">What the badges mean</summary>
      <dl className="mt-2 grid grid-cols-1 gap-x-4 gap-y-1 sm:grid-cols-[12rem_1fr]">
        {entries.map((e) => (
          <div key={e.label} className="contents">
            <dt>
              <Badge tone={e.tone}>{e.label}</Badge>
            </dt>
            <dd className="text-xs text-slate-700 dark:text-slate-300">{e.legend}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}

export function FailureKindBadge({ it }: { it: Pick<IterationRow, "status" | "failureKind"> }) {
  const kind = it.failureKind ? FAILURE_KINDS[it.failureKind] : undefined;
  // The status badge already says "ran · …" for evidence outcomes.
  if (!kind || (it.status === "succeeded" && /evidence/.test(it.failureKind ?? ""))) return null;
  return (
    <span data-testid="failure-kind" data-kind={it.failureKind}>
      <Badge tone={kind.tone} title={kind.legend}>
        {kind.label}
      </Badge>
    </span>
  );
}

type Diagnostics = IterationRow["diagnostics"];

/** One line per fact, for a failed (or suspicious) iteration. */
export function diagnosticsText(d: Diagnostics | undefined): string[] {
  if (!d) return [];
  const lines: string[] = [];
  if (d.exitCode !== undefined || d.signal) {
    lines.push(d.exitCode === null || d.signal ? `killed by ${d.signal ?? "a signal"}` : `exit code ${d.exitCode}`);
  }
  if (d.subtype) lines.push(`result: ${d.subtype}`);
  if (d.unparsedLines) lines.push(`${d.unparsedLines} unparsed stdout line${d.unparsedLines === 1 ? "" : "s"}`);
  for (const l of d.unparsedSample ?? []) lines.push(`unparsed: ${l}`);
  if (d.costSource) lines.push(`cost: ${d.costSource}`);
  for (const w of d.warnings ?? []) lines.push(`warning: ${w}`);
  return lines;
}

export function IterationDiagnostics({ it }: { it: Pick<IterationRow, "number" | "question" | "diagnostics"> }) {
  const d = it.diagnostics;
  const lines = diagnosticsText(d);
  if (!it.question && lines.length === 0 && !d?.stderrTail) return null;
  return (
    <section className="min-w-0" data-testid="iteration-diagnostics">
      <h4 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400">
        Diagnostics
      </h4>
      {it.question && (
        <p className="text-sm">
          The agent asked: <q>{it.question}</q>
        </p>
      )}
      {lines.length > 0 && (
        <ul className="text-xs text-slate-700 dark:text-slate-300">
          {lines.map((l, i) => (
            <li key={`${i}:${l}`}>{l}</li>
          ))}
        </ul>
      )}
      {d?.stderrTail && (
        <pre
          aria-label={`stderr of iteration ${it.number}`}
          className="mt-1 max-h-48 overflow-auto whitespace-pre-wrap break-words rounded-lg border border-slate-200 bg-slate-50 p-2 text-xs dark:border-slate-800 dark:bg-slate-950"
        >
          {d.stderrTail}
        </pre>
      )}
    </section>
  );
}

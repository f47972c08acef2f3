// The facts a shared report states, computed once for the page, the JSON and
// the Markdown export so the three never disagree. Pure.
import { lastAttempts, type IterationPoint } from "@/lib/charts/types";
import type { SharedReport } from "@/components/shared/api-types";
import {
  formatDuration,
  formatScore,
  formatTokens,
  formatUsd,
  statusDisplay,
  stopTypeLabel,
} from "@/components/loops/format";

type Shared = SharedReport;

/** The loop fields a report states, as `share.view` returns them. */
export type ReportLoop = Pick<
  Shared["loop"],
  | "name"
  | "goal"
  | "agentKind"
  | "status"
  | "stopType"
  | "stopReason"
  | "iteration"
  | "maxIterations"
  | "costUsd"
  | "costPerVerifiedUsd"
  | "budgetUsd"
  | "tokensIn"
  | "tokensOut"
  | "tokensCache"
  | "bestScore"
  | "lastScore"
>;

export interface ReportInput {
  loop: ReportLoop;
  report: Pick<
    NonNullable<Shared["report"]>,
    "durationMs" | "successRate" | "success" | "failure" | "finalMeanScore" | "efficiency"
  > | null;
  series: IterationPoint[];
  /** Stored runs by how they ended (`share.view`); an interrupted run is neither success nor failure. */
  outcomes?: Record<string, number>;
  /** The limits in effect, each with the value the loop was created with. */
  limits?: ReportLimit[];
  /** The loop runs with completion.allowNoEvidence: nothing can ever prove it done. */
  noEvidence?: boolean;
}

export interface ReportLimit {
  label: string;
  value: number;
  original: number;
  edited: boolean;
}

/** How a loop without any evidence source is labelled wherever it is shown. */
export const NO_EVIDENCE_LABEL = "can never complete; stops on limits";

/** Whether a loop's config lets it run with no evidence source (shared report `config`). */
export const runsWithoutEvidence = (config: { completion?: { allowNoEvidence?: boolean } } | null | undefined) =>
  config?.completion?.allowNoEvidence === true;

export interface FinalIteration {
  number: number;
  status: string;
  output: string;
  outputTruncated?: boolean;
  claimedDone: boolean;
  evidenceComplete: boolean;
}

export function summaryRows(r: ReportInput): [string, string][] {
  const { loop } = r;
  const tokens = loop.tokensIn + loop.tokensOut + loop.tokensCache;
  return [
    ["Goal", loop.goal],
    ["Agent", loop.agentKind],
    ["Status", statusDisplay(loop.status).label],
    [
      "Stop type",
      loop.stopType && loop.stopType !== "none" ? `${stopTypeLabel(loop.stopType)} (${loop.stopType})` : "—",
    ],
    ["Stop reason", loop.stopReason ?? "—"],
    ...(r.noEvidence ? [["Completion", `${NO_EVIDENCE_LABEL} (no evidence source)`] as [string, string]] : []),
    ["Iterations", `${loop.iteration} of at most ${loop.maxIterations}`],
    ["Final score", formatScore(r.report?.finalMeanScore ?? loop.lastScore)],
    ["Best score", formatScore(loop.bestScore)],
    ["Total cost", `${formatUsd(loop.costUsd)}${loop.budgetUsd ? ` of a ${formatUsd(loop.budgetUsd)} budget` : ""}`],
    [
      "Cost per verified task",
      loop.costPerVerifiedUsd === null ? "no verified task" : formatUsd(loop.costPerVerifiedUsd),
    ],
    [
      "Tokens",
      `${formatTokens(tokens)} (${formatTokens(loop.tokensIn)} in, ${formatTokens(loop.tokensOut)} out, ${formatTokens(loop.tokensCache)} cache)`,
    ],
    ["Duration", formatDuration(r.report?.durationMs ?? null)],
  ];
}

const OUTCOME_ORDER = ["succeeded", "failed", "error", "interrupted", "rate_limited"];
const OUTCOME_LABEL: Record<string, string> = { rate_limited: "stopped by a usage limit" };

/**
 * The share of agent runs that succeeded, over every run that ended,
 * interrupted ones included and named, so one success and one interruption
 * is 50% with "1 interrupted", never "100%". It says what it counts (runs,
 * not the goal) and, when the goal is not met, says so: "Successful
 * iterations: 100%" read as a goal met on a run that stopped short of it.
 * Falls back to the engine's rate (finished steps only) for a report without
 * stored counts.
 */
export function successLine(r: Pick<ReportInput, "report" | "outcomes">): string | null {
  const counts = r.outcomes ?? {};
  const total = Object.values(counts).reduce((s, n) => s + n, 0);
  const goal = r.report && !r.report.success ? "; the goal is not met" : "";
  if (total === 0)
    return r.report ? `Agent runs that succeeded: ${Math.round(r.report.successRate * 100)}%${goal}` : null;
  const succeeded = counts.succeeded ?? 0;
  const others = Object.keys(counts)
    .filter((k) => k !== "succeeded" && counts[k]! > 0)
    .sort((a, b) => OUTCOME_ORDER.indexOf(a) - OUTCOME_ORDER.indexOf(b))
    .map((k) => `${counts[k]} ${OUTCOME_LABEL[k] ?? k}`);
  const runs = `${succeeded} of ${total} run${total === 1 ? "" : "s"}`;
  return `Agent runs that succeeded: ${Math.round((succeeded / total) * 100)}% (${[runs, ...others].join("; ")})${goal}`;
}

const limitValue = (label: string, value: number) =>
  value === 0 ? "off" : label.includes("(USD)") ? formatUsd(value) : String(value);

/** The limits in effect as [label, value] rows; an edited limit says so and what it was. */
export function limitRows(limits: readonly ReportLimit[] | undefined): [string, string][] {
  return (limits ?? []).map((l) => [
    l.label,
    l.edited
      ? `${limitValue(l.label, l.value)} (edited; was ${limitValue(l.label, l.original)})`
      : limitValue(l.label, l.value),
  ]);
}

export interface IterationLine {
  number: number;
  status: string;
  mean: string;
  scores: string;
  claim: string;
  cost: string;
  tokens: string;
  duration: string;
  handoff: string;
}

export function iterationLines(series: IterationPoint[]): IterationLine[] {
  return lastAttempts(series).map((p) => ({
    number: p.number,
    status: p.status,
    mean: formatScore(p.meanScore),
    scores: Object.entries(p.scores)
      .map(([k, v]) => `${k} ${v.toFixed(2)}`)
      .join(", "),
    claim:
      p.claimedDone && !p.evidenceComplete
        ? "said done, evidence says no"
        : p.claimedDone
          ? "done (evidence agrees)"
          : p.evidenceComplete
            ? "evidence complete"
            : "",
    cost: formatUsd(p.costUsd),
    tokens: formatTokens(p.tokensIn + p.tokensOut + p.tokensCache),
    duration: formatDuration(p.durationMs),
    handoff: p.handoffTrigger ? p.handoffTrigger.replace(/_/g, " ") : "",
  }));
}

/**
 * User-supplied text (names, goals, stop reasons, scorer names) as inert
 * Markdown on one line: Markdown and HTML punctuation is backslash-escaped, so
 * it cannot open a link, an image, raw HTML, emphasis or a table cell, and
 * bare URLs are defused so renderers do not autolink them.
 */
export const markdownText = (s: string) =>
  s
    .replace(/[\r\n]+/g, " ")
    .replace(/[\\`*_{}[\]()<>&!|~#]/g, "\\$&")
    .replace(/:\/\//g, "\\://")
    .replace(/\bwww\./gi, (m) => `${m.slice(0, 3)}\\.`);

const cell = markdownText;

/** A code fence longer than any backtick run in `text`, so the text cannot close it. */
export function codeFence(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return "`".repeat(Math.max(3, longest + 1));
}

export function reportMarkdown(r: ReportInput, final: FinalIteration | null, generatedAt: Date): string {
  const title = r.loop.name || r.loop.goal;
  const lines = [
    `# ${cell(title)}`,
    "",
    `Shared Ralph Control report, generated ${generatedAt.toISOString()}.`,
    "",
    "## Summary",
    "",
    "| | |",
    "|---|---|",
  ];
  for (const [k, v] of summaryRows(r)) lines.push(`| ${k} | ${cell(v)} |`);
  lines.push(
    "",
    "## Iterations",
    "",
    "| # | Status | Mean | Scores | Claim vs evidence | Cost | Tokens | Duration | Handoff |",
    "|---|---|---|---|---|---|---|---|---|",
  );
  for (const i of iterationLines(r.series)) {
    lines.push(
      `| ${i.number} | ${cell(i.status)} | ${i.mean} | ${cell(i.scores)} | ${i.claim} | ${i.cost} | ${i.tokens} | ${i.duration} | ${cell(i.handoff)} |`,
    );
  }
  const limits = limitRows(r.limits);
  if (limits.length) {
    lines.push("", "## Limits in effect", "", "| | |", "|---|---|");
    for (const [k, v] of limits) lines.push(`| ${cell(k)} | ${cell(v)} |`);
  }
  lines.push("", "## End-of-run report", "");
  if (r.report) {
    lines.push(
      `- Outcome: ${r.report.success ? "success" : r.report.failure ? "failure" : "no success (limit, operator or still running)"}`,
    );
    const success = successLine(r);
    if (success) lines.push(`- ${success}`);
    if (r.report.efficiency.cacheHitRate !== null)
      lines.push(`- Cache hit rate: ${Math.round(r.report.efficiency.cacheHitRate * 100)}%`);
    if (r.report.efficiency.costPerCall !== null)
      lines.push(`- Cost per agent call: ${formatUsd(r.report.efficiency.costPerCall)}`);
  }
  if (final) {
    lines.push(
      "",
      `### Final output (iteration ${final.number}, ${final.status})`,
      "",
      codeFence(final.output),
      final.output,
      codeFence(final.output),
    );
  }
  return `${lines.join("\n")}\n`;
}

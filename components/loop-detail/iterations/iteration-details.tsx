"use client";
// Everything one iteration recorded, claim beside evidence.
import type { ReactNode } from "react";
import type { IterationRow } from "@/components/shared/api-types";
import { Badge } from "@/components/ui/badge";
import { formatDuration, formatScore, formatTokens, formatUsd } from "@/components/loops/format";
import { CodeDiff } from "./code-diff";
import { ComposedPrompt } from "./composed-prompt";
import { IterationActions } from "./iteration-actions";
import { IterationTranscript } from "./iteration-transcript";
import { workspaceOf } from "./workspace-summary";
import { IterationDiagnostics } from "./iteration-outcome";
import { checksWithEvidence } from "./test-evidence";
import { TestEvidencePanel } from "./test-evidence-panel";
import { TraceWaterfall } from "./trace-waterfall";

type Cell = { score: number; reason: string | null };
type Check = { source: string; complete: boolean; detail: string; counted: boolean };
type Reflection = {
  summary: string;
  keyFindings: string[];
  rootCauses: string[];
  insights: string[];
  suggestions: string[];
};

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="min-w-0">
      <h4 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400">{title}</h4>
      {children}
    </section>
  );
}

const Pre = ({ children, label }: { children: string; label: string }) => (
  <pre
    aria-label={label}
    className="max-h-72 overflow-auto whitespace-pre-wrap break-words rounded-lg border border-slate-200 bg-slate-50 p-2 text-xs leading-relaxed dark:border-slate-800 dark:bg-slate-950"
  >
    {children || "(empty)"}
  </pre>
);

export function IterationDetails({ it }: { it: IterationRow }) {
  const scores = Object.entries((it.scores ?? {}) as Record<string, Cell>);
  const evidence = (it.evidence ?? { checks: [] }) as { checks?: Check[]; complete?: boolean | null };
  const verification = it.verification as { status?: string; reason?: string } | null;
  const reflection = it.reflection as Reflection | null;
  const validation = it.validation as {
    valid: boolean;
    results: { name: string; valid: boolean; errors: string[] }[];
  } | null;
  const toolCalls = (it.toolCalls ?? []) as string[];
  const checks = checksWithEvidence(it.scores);
  return (
    <div className="grid grid-cols-1 gap-4 border-t border-slate-200 p-3 lg:grid-cols-2 dark:border-slate-800">
      {/* A fork's inherited iteration is the parent's, read-only here: its actions live on the parent's page. */}
      {!it.inheritedFrom && (
        <div className="lg:col-span-2">
          <IterationActions loopId={it.loopId} number={it.number} hasSnapshot={!!workspaceOf(it)?.sha} />
        </div>
      )}
      <TraceWaterfall it={it} />
      <IterationTranscript loopId={it.loopId} number={it.number} attempt={it.attempt} />
      <Section title="Input">
        <ComposedPrompt input={it.input} number={it.number} />
      </Section>
      <Section title={`Output${it.outputTruncated ? " (truncated)" : ""}`}>
        <Pre label={`Output of iteration ${it.number}`}>{it.output}</Pre>
      </Section>
      <Section title="Code diff">
        <CodeDiff loopId={it.loopId} number={it.number} />
      </Section>
      <Section title="Claim vs evidence">
        <p className="text-sm">
          Agent: {it.claimedDone ? <Badge tone="info">claims done</Badge> : <Badge>does not claim done</Badge>} ·
          Evidence:{" "}
          {evidence.complete === true ? (
            <Badge tone="good">complete</Badge>
          ) : evidence.complete === false ? (
            <Badge tone="warn">not complete</Badge>
          ) : (
            <Badge>no counted evidence</Badge>
          )}
        </p>
        {it.claim && <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">Claim: “{it.claim}”</p>}
        <ul className="mt-2 space-y-1 text-xs">
          {(evidence.checks ?? []).map((c) => (
            <li key={c.source}>
              <span
                className={c.complete ? "text-emerald-700 dark:text-emerald-400" : "text-rose-700 dark:text-rose-400"}
              >
                {c.complete ? "✓" : "✗"}
              </span>{" "}
              {c.source}
              {c.counted ? "" : " (not counted)"}: {c.detail}
            </li>
          ))}
        </ul>
      </Section>
      <Section title="Scores">
        {scores.length === 0 ? (
          <p className="text-sm text-slate-500 dark:text-slate-400">Not scored.</p>
        ) : (
          <ul className="space-y-1 text-sm">
            {scores.map(([name, cell]) => (
              <li key={name}>
                <span className="font-medium">{name}</span>{" "}
                <span className="tabular-nums">{formatScore(cell.score)}</span>
                {cell.reason && <span className="text-xs text-slate-600 dark:text-slate-400"> — {cell.reason}</span>}
              </li>
            ))}
          </ul>
        )}
        {validation && (
          <ul className="mt-2 space-y-1 text-xs">
            {validation.results.map((r) => (
              <li key={r.name}>
                {r.valid ? "✓" : "✗"} validator {r.name}
                {r.errors.length ? `: ${r.errors.join("; ")}` : ""}
              </li>
            ))}
          </ul>
        )}
      </Section>
      {checks.length > 0 && (
        <Section title="Tests">
          <TestEvidencePanel checks={checks} iteration={it.number} />
        </Section>
      )}
      <Section title="Verifier">
        <p className="text-sm">
          <Badge
            tone={verification?.status === "complete" ? "good" : verification?.status === "error" ? "bad" : "neutral"}
          >
            {verification?.status ?? "—"}
          </Badge>{" "}
          <span className="text-xs text-slate-600 dark:text-slate-400">{verification?.reason}</span>
        </p>
      </Section>
      <Section title="Reflection">
        {reflection ? (
          <div className="space-y-1 text-sm">
            <p>{reflection.summary}</p>
            {reflection.suggestions.length > 0 && (
              <p className="text-xs text-slate-600 dark:text-slate-400">Next: {reflection.suggestions.join("; ")}</p>
            )}
            {reflection.rootCauses.length > 0 && (
              <p className="text-xs text-slate-600 dark:text-slate-400">
                Root causes: {reflection.rootCauses.join("; ")}
              </p>
            )}
          </div>
        ) : (
          <p className="text-sm text-slate-500 dark:text-slate-400">No reflection (the iteration did well enough).</p>
        )}
      </Section>
      <Section title="Usage">
        <p className="text-sm tabular-nums">
          {formatTokens(it.tokensIn)} in · {formatTokens(it.tokensOut)} out · {formatTokens(it.tokensCache)} cache ·{" "}
          {formatUsd(it.costUsd)} · {formatDuration(it.durationMs)}
        </p>
        {toolCalls.length > 0 && (
          <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">Tools: {toolCalls.join(", ")}</p>
        )}
      </Section>
      {it.error && (
        <Section title="Error">
          <Pre label={`Error of iteration ${it.number}`}>{it.error}</Pre>
        </Section>
      )}
      <IterationDiagnostics it={it} />
    </div>
  );
}

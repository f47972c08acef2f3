// The shared, read-only report. A server component: everything here is in
// the HTML, so it reads (and prints) without JavaScript.
import type { IterationPoint } from "@/lib/charts/types";
import type { SharedReport } from "@/components/shared/api-types";
import { Badge } from "@/components/ui/badge";
import { statusDisplay } from "@/components/loops/format";
import { ReportCharts } from "./report-charts";
import {
  iterationLines,
  limitRows,
  NO_EVIDENCE_LABEL,
  runsWithoutEvidence,
  successLine,
  summaryRows,
  type FinalIteration,
} from "./report-model";

function Section({ title, children, id }: { title: string; children: React.ReactNode; id: string }) {
  return (
    <section aria-labelledby={id} className="break-inside-avoid-page space-y-3">
      <h2 id={id} className="text-lg font-semibold tracking-tight">
        {title}
      </h2>
      {children}
    </section>
  );
}

export function ReportView({
  report,
  final,
  token,
  generatedAt,
}: {
  report: SharedReport;
  final: FinalIteration | null;
  token: string;
  generatedAt: Date;
}) {
  const { loop } = report;
  const series = report.series as IterationPoint[];
  const status = statusDisplay(loop.status);
  const lines = iterationLines(series);
  const noEvidence = runsWithoutEvidence(report.config);
  const outcome = report.report?.success
    ? "The goal was met, on evidence."
    : report.report?.failure
      ? "The loop failed."
      : loop.isTerminal
        ? "The loop stopped without meeting the goal."
        : "The loop has not finished yet.";
  return (
    <article className="report mx-auto max-w-5xl space-y-8">
      <header className="space-y-2">
        <p className="text-xs uppercase tracking-wide text-slate-500 dark:text-slate-400">
          Shared loop report · read-only
        </p>
        <h1 className="break-words text-2xl font-semibold tracking-tight">{loop.name || loop.goal}</h1>
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <Badge tone={status.tone}>{status.label}</Badge>
          {noEvidence && (
            <span data-testid="no-evidence-badge" title="No evidence source: the loop stops only on its limits">
              <Badge tone="warn">{NO_EVIDENCE_LABEL}</Badge>
            </span>
          )}
          <span className="text-slate-600 dark:text-slate-400">
            Generated {generatedAt.toISOString().slice(0, 16).replace("T", " ")} UTC
          </span>
        </div>
        <nav aria-label="Export" className="no-print flex flex-wrap gap-3 pt-1 text-sm">
          <a className="underline" href={`/r/${token}/export/json`} rel="noreferrer">
            Export JSON
          </a>
          <a className="underline" href={`/r/${token}/export/markdown`} rel="noreferrer">
            Export Markdown
          </a>
          <span className="text-slate-500 dark:text-slate-400">Print from your browser for a paper copy.</span>
        </nav>
      </header>

      <FactSection
        title="Summary"
        id="summary"
        labelWidth="sm:grid-cols-[10rem_1fr]"
        rows={summaryRows({ loop, report: report.report, series, noEvidence })}
      />

      <Section title="Charts" id="charts">
        <ReportCharts report={report} />
      </Section>

      <Section title="Iterations" id="iterations">
        <div
          role="region"
          aria-label="Iterations (scrolls sideways)"
          tabIndex={0}
          className="overflow-x-auto rounded-xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900"
        >
          <table className="w-full text-left text-sm" aria-label="Iterations">
            <thead className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500 dark:border-slate-800 dark:text-slate-400">
              <tr>
                {["#", "Status", "Mean", "Scores", "Claim vs evidence", "Cost", "Tokens", "Duration", "Handoff"].map(
                  (h) => (
                    <th key={h} scope="col" className="px-3 py-2 font-medium">
                      {h}
                    </th>
                  ),
                )}
              </tr>
            </thead>
            <tbody>
              {lines.map((l) => (
                <tr key={l.number} className="border-b border-slate-100 last:border-0 dark:border-slate-800">
                  <td className="px-3 py-2 tabular-nums">{l.number}</td>
                  <td className="px-3 py-2">{l.status}</td>
                  <td className="px-3 py-2 tabular-nums">{l.mean}</td>
                  <td className="px-3 py-2 text-xs">{l.scores}</td>
                  <td
                    className={`px-3 py-2 text-xs ${l.claim.startsWith("said done") ? "font-semibold text-rose-700 dark:text-rose-400" : ""}`}
                  >
                    {l.claim}
                  </td>
                  <td className="px-3 py-2 tabular-nums">{l.cost}</td>
                  <td className="px-3 py-2 tabular-nums">{l.tokens}</td>
                  <td className="px-3 py-2 tabular-nums">{l.duration}</td>
                  <td className="px-3 py-2 text-xs">{l.handoff}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Section>

      <Section title="End-of-run report" id="end-of-run">
        <div className="space-y-3 rounded-xl border border-slate-200 bg-white p-4 text-sm dark:border-slate-800 dark:bg-slate-900">
          <p className="font-medium">{outcome}</p>
          {report.report && (
            <ul className="list-disc space-y-1 pl-5">
              <li data-testid="report-success">{successLine({ report: report.report, outcomes: report.outcomes })}</li>
              {report.report.efficiency.cacheHitRate !== null && (
                <li>Cache hit rate: {Math.round(report.report.efficiency.cacheHitRate * 100)}%</li>
              )}
              {report.report.efficiency.costPerCall !== null && (
                <li>Cost per agent call: ${report.report.efficiency.costPerCall.toFixed(4)}</li>
              )}
            </ul>
          )}
          {final && (
            <div>
              <h3 className="mb-1 font-medium">
                Final output (iteration {final.number}, {final.status}
                {final.claimedDone && !final.evidenceComplete ? "; the agent said done, the evidence says no" : ""})
              </h3>
              <pre
                tabIndex={0}
                aria-label={`Final output of iteration ${final.number}`}
                className="max-h-[32rem] overflow-auto whitespace-pre-wrap break-words rounded-lg border border-slate-200 bg-slate-50 p-3 text-xs print:max-h-none dark:border-slate-800 dark:bg-slate-950"
              >
                {final.output || "(empty)"}
              </pre>
            </div>
          )}
        </div>
      </Section>

      <FactSection
        title="Limits in effect"
        id="limits"
        labelWidth="sm:grid-cols-[14rem_1fr]"
        rows={limitRows(report.limits)}
        valueClass={(v) => (v.includes("(edited") ? "font-medium text-amber-800 dark:text-amber-300" : undefined)}
      />

      <Section title="Configuration as created (redacted)" id="configuration">
        <details
          className="rounded-xl border border-slate-200 bg-white p-4 text-sm dark:border-slate-800 dark:bg-slate-900"
          open
        >
          <summary className="cursor-pointer font-medium">Agent, scorers, verifier, reflector and limits</summary>
          <pre
            tabIndex={0}
            aria-label="Loop definition (redacted)"
            className="mt-2 max-h-96 overflow-auto text-xs print:max-h-none"
          >
            {JSON.stringify(loop.definition, null, 2)}
          </pre>
        </details>
      </Section>
    </article>
  );
}

/**
 * A section of label and value pairs in two columns (test id `report-<id>`);
 * `valueClass` styles a value by what it says (by default it wraps).
 */
function FactSection({
  title,
  id,
  labelWidth,
  rows,
  valueClass = () => "break-words",
}: {
  title: string;
  id: string;
  labelWidth: "sm:grid-cols-[10rem_1fr]" | "sm:grid-cols-[14rem_1fr]";
  rows: [string, string][];
  valueClass?: (value: string) => string | undefined;
}) {
  return (
    <Section title={title} id={id}>
      <dl
        data-testid={`report-${id}`}
        className={`grid grid-cols-1 gap-x-6 gap-y-2 rounded-xl border border-slate-200 bg-white p-4 text-sm ${labelWidth} dark:border-slate-800 dark:bg-slate-900`}
      >
        {rows.map(([k, v]) => (
          <div key={k} className="contents">
            <dt className="font-medium text-slate-500 dark:text-slate-400">{k}</dt>
            <dd className={valueClass(v)}>{v}</dd>
          </div>
        ))}
      </dl>
    </Section>
  );
}

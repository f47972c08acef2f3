"use client";
// A chart's card: title, a plain-language summary for screen readers (the
// SVG itself is decorative), a "view as table" toggle with the same data,
// the point count the tests read, and an empty state while there is nothing
// to draw yet.
import { useState, type ReactNode } from "react";
import type { ChartFacts } from "./chart-summaries";
import { ChartTable } from "./chart-table";
import { WhenVisible } from "@/components/shared/when-visible";

/** What a chart is, whatever it draws: its test id, its title, and what it says while there is nothing to draw. */
type ChartAbout = readonly [testId: string, title: string, empty: string];

export const CHARTS = {
  score: ["score-chart", "Score per iteration", "Scores appear here after the first iteration."],
  cost: ["cost-chart", "Cumulative cost", "Cost appears here after the first iteration."],
  tokens: ["token-chart", "Tokens per iteration", "Token use appears here after the first iteration."],
  health: ["health-timeline", "Health lane", "Health appears here after the first iteration."],
  scorePerDollar: ["score-spend-chart", "Score gained per dollar", "Appears once an iteration has scored."],
  race: ["race-score-chart", "Score over iterations", "Scores appear here after the contenders' first iterations."],
} as const satisfies Record<string, ChartAbout>;

export function ChartFrame({
  about: [testId, title, empty],
  facts: [summary, table, drawn],
  children,
  footer,
  legend,
  height = "h-60",
  drawable = drawn.length > 0,
}: {
  about: ChartAbout;
  /** The summary, the table, and the iterations drawn (their count and the last: the live-agreement test reads them). */
  facts: ChartFacts;
  children: ReactNode;
  footer?: ReactNode;
  /** Shown instead of the summary text in the caption (the summary then only goes to the drawing's label). */
  legend?: ReactNode;
  height?: string;
  /** Whether there is anything to draw (defaults to: any point drawn). */
  drawable?: boolean;
}) {
  const [asTable, setAsTable] = useState(false);
  const label = `${title}: ${summary}`;
  return (
    <figure
      data-testid={testId}
      data-points={drawn.length}
      data-last-x={drawn.at(-1) ?? 0}
      className="min-w-0 rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
    >
      <figcaption className="mb-2 flex flex-wrap items-baseline justify-between gap-2">
        <span className="text-sm font-semibold text-slate-800 dark:text-slate-200">{title}</span>
        <span className="flex flex-wrap items-baseline gap-3 text-xs text-slate-600 dark:text-slate-400">
          {legend ?? summary}
          {drawable && (
            <button
              type="button"
              aria-pressed={asTable}
              aria-label={`View ${title} as a table`}
              onClick={() => setAsTable((v) => !v)}
              className="rounded px-1 font-medium text-slate-700 underline underline-offset-2 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-sky-700 dark:text-slate-300 dark:hover:text-white dark:focus-visible:outline-sky-400"
            >
              View as table
            </button>
          )}
        </span>
      </figcaption>
      {!drawable ? (
        <div
          className={`flex ${height === "h-60" ? "h-48" : height} items-center justify-center rounded-lg border border-dashed border-slate-200 text-sm text-slate-600 dark:border-slate-800 dark:text-slate-400`}
        >
          {empty}
        </div>
      ) : asTable ? (
        <ChartTable title={title} table={table} className={height === "h-60" ? "h-60" : "max-h-60"} />
      ) : (
        <div role="img" aria-label={label} className={`${height} w-full`}>
          <WhenVisible>{children}</WhenVisible>
        </div>
      )}
      {footer}
    </figure>
  );
}

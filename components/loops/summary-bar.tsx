"use client";
// Above the list: how many loops are in each state, what they spent today,
// how many approvals wait and how many loops need someone. Counted on the
// server (loops.summary) over all loops, whatever the filters and page.
import { memo } from "react";
import type { RouterOutputs } from "@/components/shared/api-types";
import { formatUsd, statusDisplay } from "./format";
import { summaryStatuses } from "./summary-order";

type Summary = RouterOutputs["loops"]["summary"];

/** The bar's box, shared with its placeholder so the list below never moves. */
export const SUMMARY_BAR_BOX = "mb-4 h-[4.5rem] rounded-xl border border-slate-200 dark:border-slate-800";

/** Holds the bar's place until loops.summary answers. */
export function SummaryBarPlaceholder() {
  return <div aria-hidden="true" data-testid="list-summary-placeholder" className={SUMMARY_BAR_BOX} />;
}

export const SummaryBar = memo(function SummaryBar({
  summary,
  active,
  onStatus,
}: {
  summary: Summary;
  /** The status filter in effect: its chips show pressed. */
  active: readonly string[];
  onStatus: (status: string) => void;
}) {
  const statuses = summaryStatuses(summary.byStatus);
  return (
    <section
      aria-label="Summary"
      data-testid="list-summary"
      // One row of fixed height, scrolling sideways on a phone: it arrives after the list
      // (its "today" is the browser's), and a placeholder of this height keeps the list still.
      tabIndex={0}
      className={`${SUMMARY_BAR_BOX} flex flex-nowrap items-center gap-x-6 overflow-x-auto overflow-y-hidden whitespace-nowrap bg-white px-4 text-sm dark:bg-slate-900`}
    >
      <div className="flex shrink-0 flex-nowrap items-center gap-1.5" role="group" aria-label="Loops by status">
        <span className="mr-1 text-xs text-slate-600 dark:text-slate-400">{summary.total} loops</span>
        {statuses.map(({ status, count, filterable }) => {
          const label = `${statusDisplay(status).label} ${count}`;
          return filterable ? (
            <button
              key={status}
              type="button"
              aria-pressed={active.includes(status)}
              data-testid={`summary-status-${status}`}
              onClick={() => onStatus(status)}
              className="rounded-full border border-slate-300 px-2 py-0.5 text-xs tabular-nums hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-sky-600 aria-pressed:border-sky-600 aria-pressed:bg-sky-50 dark:border-slate-700 dark:hover:bg-slate-800 dark:aria-pressed:bg-sky-950"
            >
              {label}
            </button>
          ) : (
            <span
              key={status}
              data-testid={`summary-status-${status}`}
              className="rounded-full border border-slate-200 px-2 py-0.5 text-xs tabular-nums dark:border-slate-800"
            >
              {label}
            </span>
          );
        })}
      </div>
      <dl className="flex shrink-0 flex-nowrap gap-x-6">
        {[
          { label: "Spent today", testId: "summary-spend-today", value: formatUsd(summary.spendSinceUsd), tone: "" },
          {
            label: "Approvals waiting",
            testId: "summary-approvals",
            value: summary.approvalsWaiting,
            tone: summary.approvalsWaiting > 0 ? "text-amber-700 dark:text-amber-300" : "",
          },
          {
            label: "Needs attention",
            testId: "summary-attention",
            value: summary.needsAttention,
            tone: summary.needsAttention > 0 ? "text-rose-700 dark:text-rose-300" : "",
          },
        ].map((figure) => (
          <div key={figure.testId}>
            <dt className="text-xs text-slate-600 dark:text-slate-400">{figure.label}</dt>
            <dd className={`font-medium tabular-nums ${figure.tone}`} data-testid={figure.testId}>
              {figure.value}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
});

"use client";
// Above the list: how many loops are in each state, what they spent today,
// how many approvals wait and how many loops need someone. Counted on the
// server (loops.summary) over all loops, whatever the filters and page.
import { memo } from "react";
import type { RouterOutputs } from "@/components/shared/api-types";
import { formatUsd, statusDisplay } from "./format";
import { summaryStatuses } from "./summary-order";

type Summary = RouterOutputs["loops"]["summary"];

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
      className="mb-4 flex flex-wrap items-center gap-x-6 gap-y-3 rounded-xl border border-slate-200 bg-white px-4 py-3 text-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex flex-wrap items-center gap-1.5" role="group" aria-label="Loops by status">
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
      <dl className="flex flex-wrap gap-x-6 gap-y-1">
        <div>
          <dt className="text-xs text-slate-600 dark:text-slate-400">Spent today</dt>
          <dd className="font-medium tabular-nums" data-testid="summary-spend-today">
            {formatUsd(summary.spendSinceUsd)}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-slate-600 dark:text-slate-400">Approvals waiting</dt>
          <dd
            className={`font-medium tabular-nums ${summary.approvalsWaiting > 0 ? "text-amber-700 dark:text-amber-300" : ""}`}
            data-testid="summary-approvals"
          >
            {summary.approvalsWaiting}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-slate-600 dark:text-slate-400">Needs attention</dt>
          <dd
            className={`font-medium tabular-nums ${summary.needsAttention > 0 ? "text-rose-700 dark:text-rose-300" : ""}`}
            data-testid="summary-attention"
          >
            {summary.needsAttention}
          </dd>
        </div>
      </dl>
    </section>
  );
});

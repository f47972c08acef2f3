"use client";
// A chart's card: title, a plain-language summary for screen readers (the
// SVG itself is decorative), the point count the tests read, and an empty
// state while there is nothing to draw yet.
import type { ReactNode } from "react";

export function ChartFrame({ title, summary, points, empty, children, footer, testId }: { title: string; summary: string; points: number; empty: string; children: ReactNode; footer?: ReactNode; testId: string }) {
  return (
    <figure data-testid={testId} data-points={points} className="min-w-0 rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900">
      <figcaption className="mb-2 flex flex-wrap items-baseline justify-between gap-2">
        <span className="text-sm font-semibold text-slate-800 dark:text-slate-200">{title}</span>
        <span className="text-xs text-slate-500 dark:text-slate-400">{summary}</span>
      </figcaption>
      {points === 0 ? (
        <div className="flex h-48 items-center justify-center rounded-lg border border-dashed border-slate-200 text-sm text-slate-500 dark:border-slate-800 dark:text-slate-400">{empty}</div>
      ) : (
        <div role="img" aria-label={`${title}: ${summary}`} className="h-60 w-full">
          {children}
        </div>
      )}
      {footer}
    </figure>
  );
}

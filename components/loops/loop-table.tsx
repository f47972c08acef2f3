"use client";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTRPC } from "@/lib/trpc/client";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { Skeleton } from "@/components/ui/skeleton";
import { budgetShare, formatRelative, formatUsd, statusDisplay } from "./format";

function useNow(intervalMs: number) {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const id = setInterval(() => setNow(new Date()), intervalMs);
    return () => clearInterval(id);
  }, [intervalMs]);
  return now;
}

export function LoopTable() {
  const trpc = useTRPC();
  const list = useQuery(trpc.loops.list.queryOptions({}));
  const now = useNow(5_000);

  if (list.isPending) {
    return (
      <div className="space-y-2" aria-busy="true" aria-label="Loading loops">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-12 w-full" />
        ))}
      </div>
    );
  }
  if (list.isError) {
    return (
      <div role="alert" className="rounded-lg border border-rose-300 bg-rose-50 p-4 text-sm text-rose-800 dark:border-rose-900 dark:bg-rose-950 dark:text-rose-200">
        Could not load loops: {list.error.message}
        <button className="ml-3 underline" onClick={() => list.refetch()}>
          Try again
        </button>
      </div>
    );
  }
  if (list.data.items.length === 0) {
    return (
      <EmptyState title="No loops yet">
        A Ralph loop runs an agent on one goal again and again, scores every attempt and stops only when the evidence
        says the goal is met, or a budget or limit says stop. Loops you start will appear here.
      </EmptyState>
    );
  }

  return (
    <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
      <table className="w-full text-left text-sm">
        <thead className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500 dark:border-slate-800">
          <tr>
            <th className="px-4 py-3 font-medium">Goal</th>
            <th className="px-4 py-3 font-medium">Agent</th>
            <th className="px-4 py-3 font-medium">Status</th>
            <th className="px-4 py-3 font-medium">Iteration</th>
            <th className="px-4 py-3 font-medium">Best score</th>
            <th className="px-4 py-3 font-medium">Cost</th>
            <th className="px-4 py-3 font-medium">Health</th>
            <th className="px-4 py-3 font-medium">Last activity</th>
          </tr>
        </thead>
        <tbody>
          {list.data.items.map((loop) => {
            const status = statusDisplay(loop.status);
            const share = budgetShare(loop.costUsd, loop.budgetUsd);
            return (
              <tr key={loop.id} className="border-b border-slate-100 last:border-0 dark:border-slate-800">
                <td className="max-w-xs truncate px-4 py-3 font-medium" title={loop.goal}>
                  {loop.name || loop.goal}
                </td>
                <td className="px-4 py-3">{loop.agentKind}</td>
                <td className="px-4 py-3">
                  <Badge tone={status.tone}>{status.label}</Badge>
                </td>
                <td className="px-4 py-3 tabular-nums">
                  {loop.iteration} / {loop.maxIterations}
                </td>
                <td className="px-4 py-3 tabular-nums">{loop.bestScore == null ? "—" : loop.bestScore.toFixed(2)}</td>
                <td className="px-4 py-3 tabular-nums">
                  {formatUsd(loop.costUsd)}
                  {share != null && (
                    <div className="mt-1 h-1.5 w-20 rounded bg-slate-200 dark:bg-slate-700" aria-label={`${Math.round(share * 100)}% of budget`}>
                      <div className={`h-1.5 rounded ${share >= 0.8 ? "bg-rose-500" : "bg-emerald-500"}`} style={{ width: `${share * 100}%` }} />
                    </div>
                  )}
                </td>
                <td className="px-4 py-3">{loop.health}</td>
                <td className="px-4 py-3 text-slate-500">{formatRelative(loop.lastActivityAt, now)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

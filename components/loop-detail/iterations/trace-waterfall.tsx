"use client";
// One iteration's trace as a waterfall (Langfuse style): a row per part
// (the agent, each scorer, the verifier, the reflector) with its start after
// the iteration began and its duration, bars on one time axis.
import type { IterationRow } from "@/components/shared/api-types";
import { formatDuration } from "@/components/loops/format";
import { traceRows, type TraceSpanRow } from "./trace-rows";

const BAR: Record<TraceSpanRow["kind"], string> = {
  agent: "bg-indigo-500",
  scorer: "bg-orange-500",
  verifier: "bg-emerald-600",
  reflector: "bg-fuchsia-600",
};

const ms = (n: number) => (n < 1000 ? `${Math.round(n)} ms` : formatDuration(n));

export function TraceWaterfall({
  it,
}: {
  it: Pick<IterationRow, "number" | "diagnostics" | "startedAt" | "durationMs">;
}) {
  const { rows, totalMs } = traceRows(it.diagnostics, it);
  if (rows.length === 0) return null;
  return (
    <section className="min-w-0 lg:col-span-2" data-testid="trace-waterfall">
      <h4 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400">
        Trace <span className="font-normal normal-case">({ms(totalMs)} in all)</span>
      </h4>
      <table className="w-full table-fixed text-xs" aria-label={`Trace of iteration ${it.number}`}>
        <thead className="sr-only">
          <tr>
            <th scope="col">Part</th>
            <th scope="col">Started after</th>
            <th scope="col">Duration</th>
            <th scope="col">Timeline</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={`${r.kind}-${r.name}-${i}`} data-testid="trace-span" data-kind={r.kind}>
              <th scope="row" className="w-32 truncate py-0.5 pr-2 text-left font-medium" title={r.name}>
                {r.kind === "scorer" ? `scorer: ${r.name}` : r.name}
              </th>
              <td className="w-16 py-0.5 pr-2 text-right tabular-nums text-slate-600 dark:text-slate-400">
                +{ms(r.offsetMs)}
              </td>
              <td className="w-16 py-0.5 pr-2 text-right tabular-nums">{ms(r.durationMs)}</td>
              <td className="py-0.5">
                <div className="relative h-3 rounded bg-slate-100 dark:bg-slate-800">
                  <div
                    aria-hidden
                    className={`absolute inset-y-0 rounded ${BAR[r.kind]}`}
                    style={{ left: `${r.left}%`, width: `${Math.min(r.width, 100 - r.left)}%` }}
                  />
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

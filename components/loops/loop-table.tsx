"use client";
// The loops as a table (md and wider) and as cards (phones), with the same cells.
// Neither takes the time: the cells that show it tick on their own.
import type { ReactNode } from "react";
import type { LoopSummary } from "@/components/shared/api-types";
import { Table, Td } from "@/components/ui/table";
import { CostCell, GoalCell, HealthBadge, LoopAlarms, RelativeTime, ScoreCell, StatusCell } from "./loop-cells";
import { RunningLine } from "./running-line";
import { SandboxOffBadge } from "./sandbox-badge";

const COLUMNS = ["Goal", "Agent", "Status", "Iteration", "Best score", "Cost / budget", "Health", "Last activity"];

/** The loops as a table on wider screens and as cards on phones, with the same cells. */
export function LoopList({ items }: { items: LoopSummary[] }) {
  return (
    <>
      <Table label="Loops" className="hidden md:block" columns={COLUMNS}>
        <tbody>
          {items.map((loop) => (
            <LoopRow key={loop.id} loop={loop} />
          ))}
        </tbody>
      </Table>
      <ul className="space-y-3 md:hidden" aria-label="Loops">
        {items.map((loop) => (
          <LoopCard key={loop.id} loop={loop} />
        ))}
      </ul>
    </>
  );
}

/** A row with an alarm badge in it is tinted (the badges know when time raises one). */
const ROW =
  "border-b border-slate-100 last:border-0 has-[[role=alert]]:bg-rose-50/60 dark:border-slate-800 dark:has-[[role=alert]]:bg-rose-950/30";

function LoopRow({ loop }: { loop: LoopSummary }) {
  return (
    <tr data-testid="loop-row" className={ROW}>
      <Td className="max-w-xs">
        <GoalCell loop={loop} />
        <LoopAlarms loop={loop} />
      </Td>
      <Td>
        <span className="flex flex-col items-start gap-1">
          {loop.agentKind}
          <SandboxOffBadge parts={loop.unsandboxed} />
        </span>
      </Td>
      <Td>
        <StatusCell loop={loop} />
      </Td>
      <Td className="tabular-nums">
        {loop.iteration} / {loop.maxIterations}
      </Td>
      <Td>
        <ScoreCell loop={loop} />
      </Td>
      <Td>
        <CostCell loop={loop} />
      </Td>
      <Td>
        <HealthBadge health={loop.health} />
      </Td>
      <Td className="whitespace-nowrap text-slate-600 dark:text-slate-400">
        <RelativeTime at={loop.lastActivityAt} />
      </Td>
    </tr>
  );
}

function LoopCard({ loop }: { loop: LoopSummary }) {
  return (
    <li
      data-testid="loop-card"
      className="rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex items-start justify-between gap-3">
        <GoalCell loop={loop} />
        <StatusCell loop={loop} running={false} />
      </div>
      {/* A row of its own: inside the status column its changing width re-wrapped the goal. */}
      <RunningLine loop={loop} className="mt-1 block truncate" />
      <LoopAlarms loop={loop} />
      <SandboxOffBadge parts={loop.unsandboxed} />
      <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-2 text-sm">
        <CardFact label="Agent · iteration">
          {loop.agentKind} ·{" "}
          <span className="tabular-nums">
            {loop.iteration} / {loop.maxIterations}
          </span>
        </CardFact>
        <CardFact label="Best score">
          <ScoreCell loop={loop} />
        </CardFact>
        <CardFact label="Cost / budget">
          <CostCell loop={loop} />
        </CardFact>
        <CardFact label="Health · activity" className="flex flex-wrap items-center gap-1">
          <HealthBadge health={loop.health} />
          <span className="text-xs text-slate-600 dark:text-slate-400">
            <RelativeTime at={loop.lastActivityAt} />
          </span>
        </CardFact>
      </dl>
    </li>
  );
}

/** One fact on a phone card: its label above its value. */
function CardFact({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className={className}>{children}</dd>
    </div>
  );
}

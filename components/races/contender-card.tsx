"use client";
// One contender of a race, beside the others: its outcome, spend, time, tokens, cost per verified
// task, the verdict lines of its last graded iteration, and its diff.
import Link from "next/link";
import type { RouterOutputs } from "@/components/shared/api-types";
import { formatDuration, formatScore, formatTokens, formatUsd, stopTypeLabel } from "@/components/loops/format";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Stat } from "@/components/ui/stat";
import { contenderColor } from "@/lib/charts/race-chart";
import { ContenderDiff } from "./contender-diff";
import { CostPerVerified } from "@/components/loops/cost-per-verified";
import { StatusBadge } from "@/components/loops/loop-cells";

type Contender = RouterOutputs["races"]["byId"]["contenders"][number];

export function ContenderCard({
  contender: c,
  index,
  winner,
  onPick,
  picking,
}: {
  contender: Contender;
  index: number;
  winner: boolean;
  /** Set when the operator may pick this contender as the winner now. */
  onPick?: () => void;
  picking: boolean;
}) {
  const name = c.name || c.id;
  return (
    <article
      aria-label={`Contender ${name}`}
      data-testid="contender"
      data-status={c.status}
      className={`min-w-0 space-y-3 rounded-xl border bg-white p-4 dark:bg-slate-900 ${winner ? "border-emerald-500 ring-2 ring-emerald-500/40" : "border-slate-200 dark:border-slate-800"}`}
    >
      <header className="flex flex-wrap items-center gap-2">
        <span aria-hidden className="h-3 w-3 rounded-full" style={{ background: contenderColor(index) }} />
        <h2 className="min-w-0 truncate font-semibold">
          <Link href={`/loops/${c.id}`} className="hover:underline">
            {name}
          </Link>
        </h2>
        <StatusBadge status={c.status} />
        {winner && <Badge tone="good">winner</Badge>}
      </header>
      <p className="font-mono text-xs text-slate-600 dark:text-slate-400">{c.agent}</p>
      {c.stopType && (
        <p data-testid="contender-stop" className="text-xs text-slate-600 dark:text-slate-400">
          {stopTypeLabel(c.stopType)}
        </p>
      )}
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        <Stat label="Iterations" value={c.iteration} />
        <Stat label="Best score" value={formatScore(c.bestScore)} />
        <Stat label="Spend" value={formatUsd(c.costUsd)} />
        <Stat label="Time" value={formatDuration(c.durationMs)} />
        <Stat label="Tokens in / out" value={`${formatTokens(c.tokensIn)} / ${formatTokens(c.tokensOut)}`} />
        <Stat
          label="Cost per verified task"
          value={<CostPerVerified value={c.costPerVerifiedUsd} testId="contender-cpv" />}
        />
      </dl>
      <section aria-label={`Verdict of ${name}`}>
        <h3 className="text-xs font-medium text-slate-500 dark:text-slate-400">
          Verdict{c.verdictIteration ? ` (iteration ${c.verdictIteration})` : ""}
        </h3>
        {c.verdictLines.length === 0 ? (
          <p className="text-xs text-slate-500 dark:text-slate-400">No graded check yet.</p>
        ) : (
          <ul className="mt-1 space-y-0.5 text-xs" data-testid="verdict-lines">
            {c.verdictLines.map((l, i) => (
              <li
                key={i}
                className={l.ok ? "text-emerald-800 dark:text-emerald-300" : "text-rose-800 dark:text-rose-300"}
              >
                <span aria-hidden>{l.ok ? "✓ " : "✗ "}</span>
                <span className="sr-only">{l.ok ? "passed: " : "failed: "}</span>
                {l.text}
              </li>
            ))}
          </ul>
        )}
      </section>
      {onPick && (
        <Button size="sm" onClick={onPick} disabled={picking}>
          Pick {name} as the winner
        </Button>
      )}
      <section aria-label={`Diff of ${name}`}>
        <h3 className="mb-1 text-xs font-medium text-slate-500 dark:text-slate-400">Diff against the base commit</h3>
        <ContenderDiff loopId={c.id} name={name} iteration={c.iteration} />
      </section>
    </article>
  );
}

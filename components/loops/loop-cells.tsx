"use client";
// Cells shared by the loops table (desktop) and the loop cards (phones).
// Whatever depends on the time is a small leaf of its own that re-renders
// when its text changes; the list around it does not tick.
import Link from "next/link";
import type { ReactNode } from "react";
import { runningBest } from "@/lib/charts/svg-geometry";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { ProgressBar } from "@/components/ui/progress-bar";
import { Sparkline } from "@/components/ui/sparkline";
import type { LoopSummary } from "@/components/shared/api-types";
import { NowText } from "@/components/shared/now-text";
import { CostPerVerified } from "./cost-per-verified";
import { useNowText } from "@/components/shared/use-now";
import {
  budgetShare,
  formatRelative,
  formatScore,
  formatUsd,
  healthTone,
  limitResumeText,
  statusDisplay,
  stopTypeLabel,
  type HealthName,
  type LoopStatusName,
} from "./format";
import { alarmsMoveWithTime, allAlarms, type Alarm } from "./loop-alarms";
import { RunningLine } from "./running-line";

export function GoalCell({ loop }: { loop: LoopSummary }) {
  return (
    <div className="min-w-0">
      <Link
        href={`/loops/${loop.id}`}
        className="line-clamp-2 font-medium text-slate-900 hover:underline focus-visible:outline-2 focus-visible:outline-sky-500 dark:text-slate-100"
        title={loop.goal}
      >
        {loop.name || loop.goal}
      </Link>
      {loop.name && <p className="truncate text-xs text-slate-500 dark:text-slate-400">{loop.goal}</p>}
    </div>
  );
}

/** The status badge, with a dot while the loop runs; `shown` replaces the label (the header's "throttled by budget"). */
export function StatusBadge({
  status,
  shown,
}: {
  status: LoopStatusName;
  shown?: { label: string; tone: BadgeTone } | null;
}) {
  const { label, tone } = shown ?? statusDisplay(status);
  return (
    <Badge tone={tone} dot={status === "running"}>
      {label}
    </Badge>
  );
}

/** When a loop waiting for its provider's usage limit resumes, ticking. */
export function LimitResumes({
  nextRunAt,
  serverNow,
  className,
}: {
  nextRunAt: LoopSummary["nextRunAt"];
  serverNow?: number | Date | null;
  className: string;
}) {
  return (
    <span className={className} data-testid="limit-resumes">
      <NowText serverNow={serverNow}>{(now) => limitResumeText(nextRunAt, now.getTime())}</NowText>
    </span>
  );
}

/** The share of the budget spent, as a bar; `none` (or nothing) when no budget is set. */
export function BudgetBar({
  loop,
  className,
  none = null,
}: {
  loop: Pick<LoopSummary, "costUsd" | "budgetUsd">;
  className: string;
  none?: ReactNode;
}) {
  const share = budgetShare(loop.costUsd, loop.budgetUsd);
  if (share === null) return none;
  return <ProgressBar value={share} label={`${Math.round(share * 100)}% of the budget spent`} className={className} />;
}

/** `running={false}`: the caller shows the running line elsewhere (the phone cards give it a row). */
export function StatusCell({ loop, running = true }: { loop: LoopSummary; running?: boolean }) {
  const stop = stopTypeLabel(loop.stopType);
  return (
    <div className="flex flex-col items-start gap-1">
      <StatusBadge status={loop.displayStatus} />
      {running && <RunningLine loop={loop} />}
      {loop.displayStatus === "waiting_for_limit" && (
        <LimitResumes nextRunAt={loop.nextRunAt} className="text-xs text-slate-600 dark:text-slate-400" />
      )}
      {stop && loop.stopType !== "none" && (
        <span className="text-xs text-slate-500 dark:text-slate-400" title={loop.stopReason ?? undefined}>
          {stop}
        </span>
      )}
    </div>
  );
}

export function ScoreCell({ loop }: { loop: LoopSummary }) {
  const trail = runningBest(loop.recent.map((r) => r.meanScore));
  return (
    <div className="flex items-center gap-2">
      {trail.length > 1 ? (
        <Sparkline values={trail} label={`Best score trend, now ${formatScore(loop.bestScore)}`} />
      ) : null}
      <span className="tabular-nums">{formatScore(loop.bestScore)}</span>
    </div>
  );
}

export function CostCell({ loop }: { loop: LoopSummary }) {
  return (
    <div className="tabular-nums">
      <span>{formatUsd(loop.costUsd)}</span>
      {loop.budgetUsd ? (
        <span className="text-xs text-slate-500 dark:text-slate-400"> / {formatUsd(loop.budgetUsd)}</span>
      ) : null}
      <BudgetBar loop={loop} className="mt-1 w-24" />
      {loop.costPerVerifiedUsd !== null && (
        <div className="text-xs text-emerald-800 dark:text-emerald-300">
          <CostPerVerified value={loop.costPerVerifiedUsd} /> per verified task
        </div>
      )}
    </div>
  );
}

export function HealthBadge({ health }: { health: HealthName }) {
  return <Badge tone={healthTone(health)}>{health}</Badge>;
}

/** "3 min ago", re-rendered only when the text changes. */
export function RelativeTime({ at }: { at: Date | string | number }) {
  const from = new Date(at);
  const text = useNowText((now) => formatRelative(from, now));
  return <time dateTime={from.toISOString()}>{text}</time>;
}

/** A loop's alarms: the server's, plus the ones time raises for a loop that should be working. */
export function LoopAlarms({ loop }: { loop: LoopSummary }) {
  if (!alarmsMoveWithTime(loop.status)) return <AlarmBadges alarms={loop.alarms ?? []} />;
  return <TimedAlarms loop={loop} />;
}

function TimedAlarms({ loop }: { loop: LoopSummary }) {
  // As text, so the badges re-render only when an alarm (or its wording) changes.
  const json = useNowText((now) => JSON.stringify(allAlarms(loop, now)));
  return <AlarmBadges alarms={JSON.parse(json) as Alarm[]} />;
}

export function AlarmBadges({ alarms }: { alarms: Alarm[] }) {
  if (alarms.length === 0) return null;
  return (
    <div className="flex flex-wrap gap-1">
      {alarms.map((a) => (
        <span
          key={a.kind + a.title}
          role="alert"
          className="inline-flex items-center gap-1 rounded bg-rose-700 px-1.5 py-0.5 text-[11px] font-semibold text-white"
          title={a.detail}
        >
          <span aria-hidden>⚠</span>
          {a.title}: {a.detail}
        </span>
      ))}
    </div>
  );
}

"use client";
// What an operator needs at a glance: state, why it stopped, where it is,
// how long it has run, what it cost against the budget, and when and for
// how much it will finish at the current pace.
import Link from "next/link";
import { LocalTime } from "@/components/ui/local-time";
import { NowText } from "@/components/shared/now-text";
import { estimateEtaMs } from "@/lib/charts/cost-chart";
import type { LoopDetail } from "@/components/shared/api-types";
import { Badge } from "@/components/ui/badge";
import { Stat } from "@/components/ui/stat";
import { CostPerVerified } from "@/components/loops/cost-per-verified";
import {
  formatDuration,
  formatRelative,
  formatScore,
  formatUsd,
  healthTone,
  stopTypeLabel,
  type LoopStatusName,
} from "@/components/loops/format";
import { SandboxOffBadge } from "@/components/loops/sandbox-badge";
import { budgetThrottleText, headerForecast, iterationCount } from "./header-forecast";
import { AlarmBadges, BudgetBar, LimitResumes, StatusBadge } from "@/components/loops/loop-cells";
import { NO_EVIDENCE_LABEL } from "@/components/report/report-model";

/** `displayStatus` may run ahead of the server: "interrupting…" shows from the click, not from the next refetch. */
export function LoopHeader({ detail, displayStatus }: { detail: LoopDetail; displayStatus: LoopStatusName }) {
  const { loop, report, forecast, config } = detail;
  // Waiting because the budget throttles it is a state of its own, said with its reason.
  const throttle = displayStatus === "waiting" ? detail.budgetThrottle : null;
  const throttleText = throttle ? budgetThrottleText(throttle) : null;
  const ended = loop.isTerminal;
  // A loop that has not started has no elapsed time (a fork's snapshot still carries its parent's clock).
  const started = loop.startedAt ? new Date(loop.startedAt).getTime() : null;
  const startedAt = detail.fork ? started : (report?.startedAt ?? started);
  const elapsed = (now: Date) =>
    !started && !ended ? null : ended || !startedAt ? (report?.durationMs ?? null) : now.getTime() - startedAt;
  const remaining = forecast?.remainingIterations ?? Math.max(0, loop.maxIterations - loop.iteration);
  const eta = ended ? null : estimateEtaMs(detail.series, remaining, config?.pacing.delayMs ?? 0);
  const stop = stopTypeLabel(loop.stopType);
  // A loop that waits on a person has no ETA or cost to finish: it moves when they do.
  const count = iterationCount(loop.iteration, loop.maxIterations, detail.limitedIterations);
  const forecastText = headerForecast({
    status: loop.status,
    throttled: !!throttle,
    ended,
    etaMs: eta,
    remaining,
    forecast,
  });

  return (
    <header className="space-y-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="text-xs uppercase tracking-wide text-slate-500 dark:text-slate-400">{loop.agentKind} agent</p>
          {detail.fork && (
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-400" data-testid="fork-origin">
              Forked from{" "}
              {detail.fork.parentName !== null ? (
                <Link href={`/loops/${detail.fork.parentId}`} className="font-medium underline">
                  {detail.fork.parentName}
                </Link>
              ) : (
                "a deleted loop"
              )}{" "}
              at iteration {detail.fork.iteration}
              {detail.fork.inheritedIterations > 0
                ? ` · iterations 1–${detail.fork.inheritedIterations} below are inherited, read-only`
                : ""}
            </p>
          )}
          <h1 className="mt-1 break-words text-xl font-semibold tracking-tight sm:text-2xl">
            {loop.name || loop.goal}
          </h1>
          {loop.name && <p className="mt-1 max-w-3xl text-sm text-slate-600 dark:text-slate-400">{loop.goal}</p>}
        </div>
        <div className="flex flex-wrap items-center gap-2" data-testid="loop-status">
          <StatusBadge
            status={displayStatus}
            shown={throttle ? { label: "throttled by budget", tone: "warn" } : null}
          />
          {displayStatus === "waiting_for_limit" && loop.nextRunAt ? (
            <LimitResumes
              nextRunAt={loop.nextRunAt}
              serverNow={detail.now}
              className="text-sm text-slate-600 dark:text-slate-400"
            />
          ) : null}
          <Badge tone={healthTone(loop.health)}>health: {loop.health}</Badge>
          <SandboxOffBadge parts={detail.unsandboxed} />
          {config?.completion.allowNoEvidence && (
            <span data-testid="no-evidence-badge">
              <Badge tone="warn">{NO_EVIDENCE_LABEL}</Badge>
            </span>
          )}
        </div>
      </div>
      {throttle && throttleText && (
        <div
          role="status"
          data-testid="budget-throttle"
          className="rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
        >
          <p className="font-medium">{throttleText.title}</p>
          <p>
            {throttleText.detail} Next iteration at <LocalTime date={new Date(throttle.untilMs)} mode="time" />.
          </p>
          <p>{throttleText.action}</p>
        </div>
      )}
      {detail.alarms.length > 0 && (
        <div data-testid="header-alarms" aria-label="Alarms">
          <AlarmBadges alarms={detail.alarms} />
        </div>
      )}
      {stop && loop.stopType !== "none" && (
        <p
          className="rounded-lg border border-slate-200 bg-white px-3 py-2 text-sm dark:border-slate-800 dark:bg-slate-900"
          data-testid="stop-reason"
        >
          <span className="font-medium">
            {loop.status === "completed" ? "Completed" : loop.status === "failed" ? "Failed" : "Stopped"}: {stop}
          </span>
          {loop.stopReason ? <span className="text-slate-600 dark:text-slate-400"> — {loop.stopReason}</span> : null}
        </p>
      )}
      <dl className="grid grid-cols-2 gap-4 rounded-xl border border-slate-200 bg-white p-4 sm:grid-cols-3 lg:grid-cols-6 dark:border-slate-800 dark:bg-slate-900">
        <Stat
          label="Iteration"
          value={<span data-testid="iteration-count">{count.value}</span>}
          hint={
            detail.fork && loop.iteration <= detail.fork.iteration ? (
              `${detail.fork.iteration} inherited`
            ) : count.note ? (
              <span data-testid="iteration-uncounted">{count.note}</span>
            ) : (
              <NowText serverNow={detail.now}>
                {(now) => `last activity ${formatRelative(new Date(loop.lastActivityAt), now)}`}
              </NowText>
            )
          }
        />
        <Stat
          label="Elapsed"
          value={<NowText serverNow={detail.now}>{(now) => formatDuration(elapsed(now))}</NowText>}
          hint={
            loop.startedAt ? (
              <>
                since <LocalTime date={loop.startedAt} mode="time" />
              </>
            ) : (
              "not started"
            )
          }
        />
        <Stat
          label="Cost / budget"
          value={
            <>
              {formatUsd(loop.costUsd)}
              {loop.budgetUsd ? (
                <span className="text-slate-500 dark:text-slate-400"> / {formatUsd(loop.budgetUsd)}</span>
              ) : null}
            </>
          }
          hint={<BudgetBar loop={loop} className="mt-1 w-full max-w-[9rem]" none="no budget set" />}
        />
        <Stat
          label="Best / last score"
          value={`${formatScore(loop.bestScore)} / ${formatScore(loop.lastScore)}`}
          hint={config?.stop.scoreThreshold ? `target ${config.stop.scoreThreshold}` : "no score target"}
        />
        <Stat label="ETA" value={forecastText.eta} hint={forecastText.etaHint} />
        <Stat label="Cost to finish" value={forecastText.cost} hint={forecastText.costHint} />
      </dl>
      <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="loop-cpv">
        Cost per verified task: <CostPerVerified value={loop.costPerVerifiedUsd} />
        {loop.raceId && (
          <>
            {" · "}
            <Link href={`/races/${loop.raceId}`} className="underline">
              a contender in a race: compare
            </Link>
          </>
        )}
      </p>
    </header>
  );
}

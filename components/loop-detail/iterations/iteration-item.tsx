"use client";
// One iteration in the timeline: a one-line summary that expands to its details.
import { memo, useId, useState } from "react";
import type { IterationRow } from "@/components/shared/api-types";
import { Badge } from "@/components/ui/badge";
import { formatDuration, formatScore, formatTokens, formatUsd } from "@/components/loops/format";
import { LocalTime } from "@/components/ui/local-time";
import { firstErrorLine, tokenText } from "./row-text";
import { IterationDetails } from "./iteration-details";
import { FailureKindBadge, statusBadge } from "./iteration-outcome";
import { checksWithEvidence } from "./test-evidence";
import { TestEvidenceBadge } from "./test-evidence-panel";
import { WorkspaceBadges } from "./workspace-summary";

/** `handoff`: the trigger when the next iteration started from a fresh context. */
// Memoised: rows keep their identity across refetches (lib/trpc/share-equal), so a new iteration draws one row, not the page.
export const IterationItem = memo(function IterationItem({
  it,
  handoff,
  defaultOpen = false,
  labelAgent = false,
  posInSet,
  setSize,
  previousMean,
}: {
  it: IterationRow;
  /** The mean score of the iteration before (undefined when it is not loaded), for what the badge says. */
  previousMean?: number | null;
  handoff: string | null;
  defaultOpen?: boolean;
  /** Say which agent ran it (the loop has used its fallback agent). */
  labelAgent?: boolean;
  /** In a windowed list, where this row stands among all of them (for screen readers). */
  posInSet?: number;
  setSize?: number;
}) {
  const [open, setOpen] = useState(defaultOpen);
  const panel = useId();
  // "Agent said done, evidence says no": the claim a loop must never complete on.
  const saidDoneWithoutEvidence = it.claimedDone && !it.evidenceComplete;
  const errorLine = firstErrorLine(it.error);
  const badge = statusBadge(it, previousMean);
  return (
    <li
      data-testid="iteration"
      data-number={it.number}
      data-inherited={it.inheritedFrom ? "true" : undefined}
      aria-posinset={posInSet}
      aria-setsize={setSize}
      className={`rounded-xl border bg-white dark:bg-slate-900 ${
        it.inheritedFrom
          ? "border-dashed border-slate-300 dark:border-slate-700"
          : "border-slate-200 dark:border-slate-800"
      }`}
    >
      <button
        type="button"
        aria-expanded={open}
        aria-controls={panel}
        onClick={() => setOpen((o) => !o)}
        className="flex w-full flex-wrap items-center gap-x-3 gap-y-1 rounded-xl px-3 py-2.5 text-left text-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-sky-500 dark:hover:bg-slate-800/60"
      >
        <span aria-hidden className={`text-xs transition ${open ? "rotate-90" : ""}`}>
          ▶
        </span>
        <span className="font-semibold tabular-nums">
          #{it.number}
          {it.attempt > 1 ? (
            <span className="font-normal text-slate-600 dark:text-slate-400"> (attempt {it.attempt})</span>
          ) : null}
        </span>
        <span data-testid="iteration-status">
          <Badge tone={badge.tone}>{badge.label}</Badge>
        </span>
        {it.inheritedFrom && (
          <span data-testid="inherited-iteration">
            <Badge tone="neutral" title={`inherited from ${it.inheritedFrom.name || "the parent loop"}`}>
              {/* A parent's long goal is cut, not allowed to widen a phone's page. */}
              <span className="max-w-[14rem] truncate">
                inherited from {it.inheritedFrom.name || "the parent loop"}
              </span>
            </Badge>
          </span>
        )}
        <FailureKindBadge it={it} />
        {labelAgent ? (
          <Badge tone={it.agent === "fallback" ? "info" : "neutral"}>
            {it.agent === "fallback" ? "fallback agent" : "primary agent"}
          </Badge>
        ) : null}
        <span className="tabular-nums">score {formatScore(it.meanScore)}</span>
        <TestEvidenceBadge checks={checksWithEvidence(it.scores)} />
        {saidDoneWithoutEvidence && (
          <span
            data-testid="claim-mismatch"
            className="rounded bg-rose-700 px-1.5 py-0.5 text-xs font-semibold text-white"
          >
            ⚑ agent said done, evidence says no
          </span>
        )}
        {it.claimMismatch && !saidDoneWithoutEvidence && (
          <Badge tone="info">evidence says done, agent did not claim it</Badge>
        )}
        {handoff && <Badge tone="info">⇄ fresh context next: {handoff.replace(/_/g, " ")}</Badge>}
        <WorkspaceBadges it={it} />
        {it.error && <Badge tone="bad">error</Badge>}
        <span className="ml-auto flex flex-wrap gap-x-3 text-xs text-slate-600 tabular-nums dark:text-slate-400">
          <span data-testid="iteration-time" title="started">
            <LocalTime date={it.startedAt} mode="time" />
          </span>
          <span data-testid="iteration-tokens">{tokenText(it, formatTokens)}</span>
          <span>{formatUsd(it.costUsd)}</span>
          <span>{formatDuration(it.durationMs)}</span>
        </span>
        {errorLine && (
          <span
            data-testid="iteration-error-line"
            className="basis-full truncate pl-5 font-mono text-xs text-rose-800 dark:text-rose-300"
            title={errorLine}
          >
            {errorLine}
          </span>
        )}
      </button>
      <div id={panel} hidden={!open}>
        {open && <IterationDetails it={it} />}
      </div>
    </li>
  );
});

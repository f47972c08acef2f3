"use client";
// The gate waiting for a decision, with what the decision is about (output
// diff, score change, cost so far and projected), a countdown to the
// deadline and what happens when it passes; then earlier decisions.
import { LocalTime } from "@/components/ui/local-time";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc/client";
import type { LoopDetail } from "@/components/shared/api-types";
import { useNow } from "@/components/shared/use-now";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Stat } from "@/components/ui/stat";
import { EmptyState } from "@/components/ui/empty-state";
import { formatDuration, formatScore, formatUsd } from "@/components/loops/format";
import type { ControlName } from "./control-names";
import { DiffView } from "./iterations/diff-view";
import { ITERATION_PAGE } from "./iterations/iteration-timeline";

type ApprovalStatus = LoopDetail["approvals"][number]["status"];
/** A decision's colour; any other status (a timeout's default, a cancelled gate) is informational. */
const APPROVAL_TONE: Partial<Record<ApprovalStatus, BadgeTone>> = {
  approved: "good",
  pending: "warn",
  rejected: "bad",
};

const AT_TIMEOUT: Record<string, Record<string, string>> = {
  approve: { completion: "it is approved and the loop completes", other: "it is approved and the loop goes on" },
  reject: {
    completion: "it is rejected and the loop keeps iterating",
    other: "it is rejected and the loop pauses until resumed",
  },
  terminate: { completion: "the loop is terminated", other: "the loop is terminated" },
};

export function timeoutOutcome(defaultAction: string, kind: string): string {
  return (
    AT_TIMEOUT[defaultAction]?.[kind === "completion" ? "completion" : "other"] ??
    `the default action (${defaultAction}) is taken`
  );
}

function Countdown({ deadline, serverNow }: { deadline: number; serverNow: Date }) {
  const now = useNow(serverNow);
  const left = deadline - now.getTime();
  return (
    <span className={`tabular-nums ${left < 60_000 ? "text-rose-700 dark:text-rose-400" : ""}`}>
      {left <= 0 ? "deadline passed: applying the default…" : formatDuration(left)}
    </span>
  );
}

export function ApprovalsPanel({
  detail,
  onControl,
  canDecide,
}: {
  detail: LoopDetail;
  onControl: (c: ControlName) => void;
  canDecide: boolean;
}) {
  const trpc = useTRPC();
  const gate = detail.pendingGate;
  // Shares the timeline's first page from the cache: no extra request.
  const latest = useQuery({
    ...trpc.loops.iterations.queryOptions({ id: detail.loop.id, limit: ITERATION_PAGE }),
    enabled: !!gate,
  });
  const scored = detail.series.filter((s) => s.meanScore !== null);
  const [prev, last] = [scored.at(-2), scored.at(-1)];
  const items = latest.data?.items ?? [];
  const lastOut = items[0]?.output;
  const prevOut = items.find((i) => i.number === (items[0]?.number ?? 0) - 1)?.output;

  return (
    <div className="space-y-4">
      {gate ? (
        <section
          data-testid="pending-gate"
          className="rounded-xl border-2 border-amber-400 bg-amber-50/60 p-4 dark:border-amber-600 dark:bg-amber-950/40"
        >
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h2 className="font-semibold">
              Waiting for approval: {gate.kind} gate after iteration {gate.iteration}
            </h2>
            <Badge tone="warn">{gate.reason}</Badge>
          </div>
          <dl className="mt-3 grid grid-cols-2 gap-4 sm:grid-cols-4">
            <Stat label="Score change" value={`${formatScore(prev?.meanScore)} → ${formatScore(last?.meanScore)}`} />
            <Stat label="Cost so far" value={formatUsd(detail.loop.costUsd)} />
            <Stat
              label="Projected total"
              value={detail.forecast ? formatUsd(detail.forecast.projectedTotalCost) : "—"}
            />
            <Stat
              label="Deadline"
              value={gate.deadlineAt ? <Countdown deadline={gate.deadlineAt} serverNow={detail.now} /> : "none (waits)"}
            />
          </dl>
          <p className="mt-3 text-sm">
            {gate.deadlineAt ? "If nobody decides by the deadline, " : "There is no deadline; if one were set, "}
            <strong>{timeoutOutcome(gate.defaultAction, gate.kind)}</strong>.
          </p>
          {lastOut !== undefined && prevOut !== undefined && (
            <details className="mt-3">
              <summary className="cursor-pointer text-sm font-medium">Output change in the last iteration</summary>
              <div className="mt-2">
                <DiffView before={prevOut} after={lastOut} />
              </div>
            </details>
          )}
          {canDecide && (
            <div className="mt-4 flex flex-wrap gap-2">
              <Button onClick={() => onControl("approve")}>Approve</Button>
              <Button variant="secondary" onClick={() => onControl("requestChanges")}>
                Request changes
              </Button>
              <Button variant="danger" onClick={() => onControl("reject")}>
                Reject
              </Button>
            </div>
          )}
        </section>
      ) : (
        <p className="text-sm text-slate-600 dark:text-slate-400">No approval is pending.</p>
      )}
      {detail.approvals.length === 0 ? (
        <EmptyState title="No approvals yet">
          Gates (before completion, on budget use, every N iterations) are set in the loop’s approval settings.
        </EmptyState>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white text-sm dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900">
          {detail.approvals.map((a) => (
            <li key={a.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2">
              <Badge tone={APPROVAL_TONE[a.status] ?? "info"}>{a.status.replace(/_/g, " ")}</Badge>
              <span>
                {a.gate} gate · iteration {a.iteration}
              </span>
              {a.decidedBy && <span className="text-slate-600 dark:text-slate-400">by {a.decidedBy}</span>}
              {a.comment && <span className="text-slate-600 dark:text-slate-400">“{a.comment}”</span>}
              <LocalTime className="ml-auto text-xs text-slate-600 dark:text-slate-400" date={a.requestedAt} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

"use client";
// The merge queues (docs/merge-queue.md): every repository's target branches
// with their open entries, and one queue's entries in landing order followed
// by its history (landed, needs review, dropped), each with what it found.
import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { errorMessage } from "@/components/shared/trpc-errors";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { LocalTime } from "@/components/ui/local-time";
import { useTRPC } from "@/lib/trpc/client";
import { LandingFindings, LandingStatusBadge } from "./landing-entry";

export function LandingQueueList() {
  const trpc = useTRPC();
  const queues = useQuery({ ...trpc.landing.queues.queryOptions({}), refetchInterval: 5000 });
  if (queues.error) return <ErrorState title="The queues could not be read" message={errorMessage(queues.error)} />;
  return (
    <>
      <h1 className="mb-6 text-2xl font-semibold tracking-tight">Merge queues</h1>
      {queues.data?.length === 0 && (
        <EmptyState title="No merge queue yet">Land a loop from its page to start one.</EmptyState>
      )}
      <ul className="space-y-2">
        {queues.data?.map((q) => (
          <li key={q.id}>
            <Link className="underline" href={`/queues/${q.id}`}>
              {q.repo} → {q.targetBranch}
            </Link>{" "}
            <span className="text-sm text-slate-600 dark:text-slate-400">
              {q.open} open, {q.strategy}
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}

export function LandingQueueView({ queueId }: { queueId: string }) {
  const trpc = useTRPC();
  const queue = useQuery({ ...trpc.landing.queue.queryOptions({ id: queueId }), refetchInterval: 3000 });
  if (queue.error) return <ErrorState title="The queue could not be read" message={errorMessage(queue.error)} />;
  const q = queue.data;
  if (!q) return <p>Loading…</p>;
  const rows = [...q.open, ...q.history];
  return (
    <>
      <h1 className="mb-1 text-2xl font-semibold tracking-tight">Merge queue: {q.targetBranch}</h1>
      <p className="mb-6 text-sm text-slate-600 dark:text-slate-400">
        {q.repo} · {q.strategy} · {q.busy ? "landing now" : "idle"} · the target moves only by a compare-and-swap after
        green evidence
      </p>
      {rows.length === 0 && <EmptyState title="Empty">Nothing has been queued here yet.</EmptyState>}
      <ol aria-label="Queue entries" className="space-y-3">
        {rows.map((e) => (
          <li
            key={e.id}
            className="rounded-xl border border-slate-200 bg-white p-4 text-sm dark:border-slate-800 dark:bg-slate-900"
          >
            <div className="flex flex-wrap items-center gap-3">
              {e.position !== null && <span className="font-mono">#{e.position}</span>}
              <LandingStatusBadge status={e.status} />
              <Link className="underline" href={`/loops/${e.loopId}`}>
                {e.sourceBranch}
              </Link>
              {e.landedSha && <span className="font-mono">landed {e.landedSha.slice(0, 12)}</span>}
              <span className="text-slate-600 dark:text-slate-400">
                by {e.actor}, <LocalTime date={e.createdAt} />
                {e.attempts > 1 ? `, ${e.attempts} attempts` : ""}
              </span>
            </div>
            {e.reason && <p className="mt-2">{e.reason}</p>}
            <LandingFindings detail={e.detail} />
          </li>
        ))}
      </ol>
    </>
  );
}

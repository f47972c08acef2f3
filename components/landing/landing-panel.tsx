"use client";
// The loop page's "Land" control (docs/merge-queue.md): queue the loop's
// branch for landing onto a target branch, see its place in line and how the
// last landing went, and answer one that needs review. The server decides
// everything (refusals come back with their reason); this only shows it.
import Link from "next/link";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { firstErrorMessage } from "@/components/shared/trpc-errors";
import { Button } from "@/components/ui/button";
import { useTRPC } from "@/lib/trpc/client";
import { LandingStatusBadge, LandingFindings } from "./landing-entry";

export function LandingPanel({ loopId, canOperate }: { loopId: string; canOperate: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const landings = useQuery({ ...trpc.landing.ofLoop.queryOptions({ loopId }), refetchInterval: 3000 });
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.landing.ofLoop.queryKey({ loopId }) });
  const land = useMutation(trpc.landing.land.mutationOptions({ onSuccess: refresh }));
  const sendBack = useMutation(trpc.landing.sendBack.mutationOptions({ onSuccess: refresh }));
  const requeue = useMutation(trpc.landing.requeue.mutationOptions({ onSuccess: refresh }));
  const drop = useMutation(trpc.landing.cancel.mutationOptions({ onSuccess: refresh }));
  const [target, setTarget] = useState("");
  const latest = landings.data?.[0];
  const open = latest && ["queued", "rebasing", "checking"].includes(latest.status);
  const error = firstErrorMessage(landings.error, land.error, sendBack.error, requeue.error, drop.error);
  return (
    <section
      aria-label="Land"
      className="mb-4 rounded-xl border border-slate-200 bg-white p-4 text-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex flex-wrap items-center gap-3">
        <h2 className="font-medium">Land</h2>
        {latest ? (
          <>
            <LandingStatusBadge status={latest.status} />
            {latest.position !== null && (
              <span data-testid="queue-position">position {latest.position} in the queue</span>
            )}
            <span className="text-slate-600 dark:text-slate-400">
              {latest.sourceBranch} → {latest.targetBranch}
            </span>
            <Link className="underline" href={`/queues/${latest.queueId}`}>
              Queue
            </Link>
          </>
        ) : (
          <span className="text-slate-600 dark:text-slate-400">
            Not queued. Landing rebases the loop&apos;s branch onto the target&apos;s current head, re-runs its evidence
            there, and only then moves the target.
          </span>
        )}
        <span className="ml-auto" />
        {canOperate && !open && (
          <form
            className="flex items-center gap-2"
            onSubmit={(e) => {
              e.preventDefault();
              land.mutate({ loopId, ...(target.trim() ? { targetBranch: target.trim() } : {}) });
            }}
          >
            <label className="sr-only" htmlFor="land-target">
              Target branch
            </label>
            <input
              id="land-target"
              value={target}
              onChange={(e) => setTarget(e.target.value)}
              placeholder="target branch (default: checkout's)"
              className="rounded-md border border-slate-300 px-2 py-1 dark:border-slate-700 dark:bg-slate-950"
            />
            <Button type="submit" disabled={land.isPending}>
              Land
            </Button>
          </form>
        )}
      </div>
      {error && (
        <p role="alert" className="mt-2 text-rose-700 dark:text-rose-300">
          {error}
        </p>
      )}
      {latest?.reason && <p className="mt-2">{latest.reason}</p>}
      {latest && <LandingFindings detail={latest.detail} />}
      {canOperate && latest?.status === "needs_review" && (
        <div className="mt-3 flex flex-wrap gap-2">
          <Button onClick={() => sendBack.mutate({ id: latest.id })} disabled={sendBack.isPending}>
            Send back to work
          </Button>
          <Button variant="ghost" onClick={() => requeue.mutate({ id: latest.id })} disabled={requeue.isPending}>
            Re-queue
          </Button>
          <Button variant="ghost" onClick={() => drop.mutate({ id: latest.id })} disabled={drop.isPending}>
            Drop
          </Button>
        </div>
      )}
      {sendBack.data && (
        <p className="mt-2">
          Sent back to work as{" "}
          <Link className="underline" href={`/loops/${sendBack.data.loopId}`}>
            a new loop
          </Link>
          ; it is queued to land again when it completes.
        </p>
      )}
    </section>
  );
}

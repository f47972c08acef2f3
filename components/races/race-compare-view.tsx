"use client";
// The race compare view (docs/races.md): the race's goal, policy and decision, its cost per verified
// task, every contender's score over iterations on one chart, and the contenders side by side.
// Refreshed every few seconds while the race runs: a race is a handful of loops, their own pages
// carry the live stream.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC, useTRPCClient } from "@/lib/trpc/client";
import { errorMessage } from "@/components/shared/trpc-errors";
import { formatUsd } from "@/components/loops/format";
import { Badge } from "@/components/ui/badge";
import { ErrorState } from "@/components/ui/error-state";
import { LocalTime } from "@/components/ui/local-time";
import { SkeletonRows } from "@/components/ui/skeleton";
import { Stat } from "@/components/ui/stat";
import { toast } from "@/components/ui/toast";
import { ContenderCard } from "./contender-card";
import { CostPerVerified } from "@/components/loops/cost-per-verified";
import { RaceScoreChart } from "./race-score-chart";

const LIVE = new Set([
  "queued",
  "running",
  "waiting",
  "paused",
  "waiting_for_limit",
  "awaiting_approval",
  "needs_attention",
]);
const POLICY = { first_verified: "first verified wins and is landed", operator: "the operator picks" } as const;

export function RaceCompareView({ id }: { id: string }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const me = useQuery(trpc.auth.me.queryOptions());
  const race = useQuery({
    ...trpc.races.byId.queryOptions({ id }),
    refetchInterval: (q) => (q.state.data?.contenders.some((c) => LIVE.has(c.status)) ? 3_000 : false),
  });
  const pick = useMutation({
    mutationFn: (loopId: string) => client.races.pick.mutate({ id, loopId }),
    onSuccess: (d) => {
      toast(
        d.landing.queued ? "Winner picked and sent to the merge queue" : `Winner picked; ${d.landing.note}`,
        "success",
      );
      void queryClient.invalidateQueries({ queryKey: trpc.races.byId.queryKey({ id }) });
    },
    onError: (e) => toast(errorMessage(e), "error"),
  });
  if (race.isPending) return <SkeletonRows rows={4} label="Loading the race" />;
  if (race.isError)
    return (
      <ErrorState title="Could not load the race" message={errorMessage(race.error)} onRetry={() => race.refetch()} />
    );
  const r = race.data;
  const canOperate = me.data?.permissions.operateLoops ?? false;
  const winner = r.contenders.find((c) => c.id === r.winnerLoopId);
  return (
    <div className="space-y-6">
      <header className="space-y-2">
        <h1 className="text-2xl font-semibold tracking-tight">{r.name || "Race"}</h1>
        <p className="max-w-3xl whitespace-pre-wrap text-sm text-slate-700 dark:text-slate-300">{r.goal}</p>
        <dl className="grid grid-cols-2 gap-4 rounded-xl border border-slate-200 bg-white p-4 sm:grid-cols-5 dark:border-slate-800 dark:bg-slate-900">
          <Stat label="Policy" value={POLICY[r.policy]} />
          <Stat
            label="Contenders"
            value={r.contenders.length}
            hint={`lands onto ${r.targetBranch ?? "the checkout's branch"}`}
          />
          <Stat label="Spend" value={formatUsd(r.costPerVerified.spendUsd)} />
          <Stat label="Verified" value={r.costPerVerified.verified} />
          <Stat
            label="Cost per verified task"
            value={<CostPerVerified value={r.costPerVerified.costPerVerifiedUsd} testId="race-cpv" />}
            hint="every contender's spend over the race's verified outcomes"
          />
        </dl>
        <div role="status" data-testid="race-decision" className="text-sm">
          {winner ? (
            <p>
              <Badge tone="good">decided</Badge> <strong>{winner.name || winner.id}</strong> won
              {r.decidedAt && (
                <>
                  {" "}
                  at <LocalTime date={r.decidedAt} />
                </>
              )}
              , by {r.decidedBy}: {r.decisionReason}
            </p>
          ) : (
            <p>
              <Badge tone="info">open</Badge>{" "}
              {r.policy === "first_verified"
                ? "No contender has passed the full evidence yet."
                : "Pick a verified contender as the winner."}
            </p>
          )}
        </div>
      </header>
      <RaceScoreChart contenders={r.contenders.map((c) => ({ id: c.id, name: c.name || c.id, points: c.points }))} />
      <div className="grid gap-4 lg:grid-cols-3 md:grid-cols-2">
        {r.contenders.map((c, i) => (
          <ContenderCard
            key={c.id}
            contender={c}
            index={i}
            winner={c.id === r.winnerLoopId}
            picking={pick.isPending}
            onPick={canOperate && !r.winnerLoopId && c.verified ? () => pick.mutate(c.id) : undefined}
          />
        ))}
      </div>
    </div>
  );
}

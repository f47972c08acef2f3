"use client";
// The races page: recent races with their outcome, and cost per verified task over the last 30 days
// per agent and per provider account (the per-agent summary).
import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc/client";
import { errorMessage } from "@/components/shared/trpc-errors";
import { formatUsd } from "@/components/loops/format";
import { ButtonLink } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { SkeletonRows } from "@/components/ui/skeleton";
import { Table, Td, Th } from "@/components/ui/table";
import type { RouterOutputs } from "@/components/shared/api-types";
import { CostPerVerified } from "@/components/loops/cost-per-verified";

type Group = RouterOutputs["races"]["costPerVerified"]["byAgent"][number];

function GroupTable({ label, rows, testId }: { label: string; rows: Group[]; testId: string }) {
  return (
    <Table label={label}>
      <thead>
        <tr>
          <Th>{label}</Th>
          <Th className="text-right">Loops</Th>
          <Th className="text-right">Verified</Th>
          <Th className="text-right">Spend</Th>
          <Th className="text-right">Cost per verified task</Th>
        </tr>
      </thead>
      <tbody data-testid={testId}>
        {rows.map((g) => (
          <tr key={g.key}>
            <Td className="font-mono text-xs">{g.key}</Td>
            <Td className="text-right tabular-nums">{g.loops}</Td>
            <Td className="text-right tabular-nums">{g.verified}</Td>
            <Td className="text-right tabular-nums">{formatUsd(g.spendUsd)}</Td>
            <Td className="text-right tabular-nums">
              <CostPerVerified value={g.costPerVerifiedUsd} />
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

export function RacesView() {
  const trpc = useTRPC();
  const races = useQuery(trpc.races.list.queryOptions({ limit: 25 }));
  const report = useQuery(trpc.races.costPerVerified.queryOptions({}));
  const me = useQuery(trpc.auth.me.queryOptions());
  return (
    <div className="space-y-8">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-2xl font-semibold tracking-tight">Races</h1>
        {me.data?.permissions.operateLoops && <ButtonLink href="/races/new">New race</ButtonLink>}
      </div>
      {races.isPending ? (
        <SkeletonRows rows={3} label="Loading races" />
      ) : races.isError ? (
        <ErrorState title="Could not load races" message={errorMessage(races.error)} onRetry={() => races.refetch()} />
      ) : races.data.length === 0 ? (
        <EmptyState title="No races yet">
          A race runs several agents on one goal and lands the first verified result.
        </EmptyState>
      ) : (
        <Table label="Races">
          <thead>
            <tr>
              <Th>Race</Th>
              <Th className="text-right">Contenders</Th>
              <Th>Outcome</Th>
              <Th className="text-right">Spend</Th>
              <Th className="text-right">Cost per verified task</Th>
            </tr>
          </thead>
          <tbody>
            {races.data.map((r) => (
              <tr key={r.id}>
                <Td>
                  <Link href={`/races/${r.id}`} className="font-medium hover:underline">
                    {r.name || r.goal.slice(0, 80)}
                  </Link>
                </Td>
                <Td className="text-right tabular-nums">{r.contenders}</Td>
                <Td>{r.winnerLoopId ? "decided" : "open"}</Td>
                <Td className="text-right tabular-nums">{formatUsd(r.costPerVerified.spendUsd)}</Td>
                <Td className="text-right tabular-nums">
                  <CostPerVerified value={r.costPerVerified.costPerVerifiedUsd} />
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <section className="space-y-3" aria-labelledby="cpv-heading">
        <h2 id="cpv-heading" className="text-lg font-semibold">
          Cost per verified task, last 30 days
        </h2>
        {report.isPending ? (
          <SkeletonRows rows={2} label="Loading cost per verified task" />
        ) : report.isError ? (
          <ErrorState
            title="Could not load the figures"
            message={errorMessage(report.error)}
            onRetry={() => report.refetch()}
          />
        ) : (
          <>
            <p className="text-sm">
              All loops: {formatUsd(report.data.total.spendUsd)} over {report.data.total.verified} verified,{" "}
              <strong>
                <CostPerVerified value={report.data.total.costPerVerifiedUsd} testId="total-cpv" />
              </strong>{" "}
              per verified task.
            </p>
            <GroupTable label="Agent" rows={report.data.byAgent} testId="cpv-by-agent" />
            <GroupTable label="Account" rows={report.data.byAccount} testId="cpv-by-account" />
          </>
        )}
      </section>
    </div>
  );
}

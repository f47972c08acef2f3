"use client";
// Settings → Usage limits: which provider accounts are at their limit, until
// when, and the loops waiting on each (they resume together at the reset).
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Section } from "@/components/auth/section";
import { limitResumeText } from "@/components/loops/format";
import { useNow } from "@/components/shared/use-now";
import { useTRPC } from "@/lib/trpc/client";

type WaitingLoop = { id: string; name: string; nextRunAt: Date | string | null };

function LoopLinks({ loops, now }: { loops: WaitingLoop[]; now: Date }) {
  if (loops.length === 0)
    return <p className="text-sm text-slate-600 dark:text-slate-400">No loop is waiting on it now.</p>;
  return (
    <ul className="mt-1 space-y-0.5 text-sm">
      {loops.map((l) => (
        <li key={l.id}>
          <Link href={`/loops/${l.id}`} className="underline-offset-2 hover:underline">
            {l.name || `Loop ${l.id.slice(0, 8)}`}
          </Link>{" "}
          <span className="text-slate-600 dark:text-slate-400">{limitResumeText(l.nextRunAt, now.getTime())}</span>
        </li>
      ))}
    </ul>
  );
}

export function UsageLimitsSection() {
  const trpc = useTRPC();
  const limits = useQuery({ ...trpc.loops.usageLimits.queryOptions(), refetchInterval: 30_000 });
  const now = useNow(limits.dataUpdatedAt);
  const data = limits.data;
  return (
    <Section
      title="Usage limits"
      description="Provider accounts at their usage limit. Loops on the same account (the same stored secret, or the same CLI on this host) wait together and resume at the reset."
    >
      {!data ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          {limits.isError ? "Could not load usage limits." : "Loading…"}
        </p>
      ) : data.windows.length === 0 && data.otherWaiting.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">No account is at its limit.</p>
      ) : (
        <ul className="space-y-3">
          {data.windows.map((w) => (
            <li key={w.account} className="rounded-lg border border-slate-200 p-3 dark:border-slate-800">
              <p className="font-mono text-sm">{w.account}</p>
              <p className="text-sm">
                until {new Date(w.until).toLocaleString()} ·{" "}
                <span className="text-slate-600 dark:text-slate-400">{w.message}</span>
              </p>
              <LoopLinks loops={w.loops} now={now} />
            </li>
          ))}
          {data.otherWaiting.length > 0 && (
            <li className="rounded-lg border border-slate-200 p-3 dark:border-slate-800">
              <p className="text-sm font-medium">Waiting on a limit of their own (backing off)</p>
              <LoopLinks loops={data.otherWaiting} now={now} />
            </li>
          )}
        </ul>
      )}
    </Section>
  );
}

"use client";
// Settings → Usage limits: which provider accounts are at their limit, until
// when, and the loops waiting on each (they resume together at the reset).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
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

/** Time left to a reset, coarse: "in 2 h 05 min", "in 42 s", "now". */
function timeToReset(until: Date | string, now: Date): string {
  const ms = new Date(until).getTime() - now.getTime();
  if (ms <= 0) return "now";
  const s = Math.ceil(ms / 1000);
  if (s < 60) return `in ${s} s`;
  const m = Math.ceil(s / 60);
  if (m < 60) return `in ${m} min`;
  const h = Math.floor(m / 60);
  return h < 48 ? `in ${h} h ${String(m % 60).padStart(2, "0")} min` : `in ${Math.round(h / 24)} days`;
}

/** Admins only: the window no longer holds (plan upgraded, reset early, misread); the reason is audited. */
function ClearWindow({ account }: { account: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [reason, setReason] = useState("");
  const clear = useMutation(
    trpc.loops.clearUsageLimit.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.loops.usageLimits.queryKey() }),
    }),
  );
  return (
    <form
      className="mt-2 flex flex-wrap items-center gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        clear.mutate({ account, reason });
      }}
    >
      <input
        aria-label={`Why clear the window of ${account}`}
        placeholder="Why (e.g. plan upgraded)"
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        className="min-w-0 flex-1 rounded-md border border-slate-300 px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-950"
      />
      <button
        type="submit"
        disabled={reason.trim() === "" || clear.isPending}
        className="rounded-md border border-slate-300 px-2 py-1 text-sm disabled:opacity-50 dark:border-slate-700"
      >
        Clear window
      </button>
      {clear.error && <span className="text-sm text-red-700 dark:text-red-400">{clear.error.message}</span>}
    </form>
  );
}

export function UsageLimitsSection({ canClear = false }: { canClear?: boolean }) {
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
              <p className="font-mono text-sm">
                {w.account}
                {(w.window !== null || w.usedPercent !== null) && (
                  <span className="ml-2 font-sans text-slate-600 dark:text-slate-400">
                    {[w.window, w.usedPercent !== null ? `${Math.round(w.usedPercent)}% used` : null]
                      .filter(Boolean)
                      .join(" · ")}
                  </span>
                )}
              </p>
              <p className="text-sm">
                until {new Date(w.until).toLocaleString()} (resets {timeToReset(w.until, now)}) ·{" "}
                <span className="text-slate-600 dark:text-slate-400">{w.message}</span>
              </p>
              <LoopLinks loops={w.loops} now={now} />
              {canClear && <ClearWindow account={w.account} />}
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

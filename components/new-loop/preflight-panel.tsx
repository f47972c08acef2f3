"use client";
// "Will it start?" on the New-loop form: the server's preflight (the agent's
// CLI on the server, every secret it needs) for the definition as it stands,
// re-checked a moment after the operator stops typing. The same checks refuse
// a loop that would start without them.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTRPC } from "@/lib/trpc/client";

const ICON = { ok: "✓", warning: "!", problem: "✗", unknown: "?" } as const;
const TONE = {
  ok: "text-emerald-700 dark:text-emerald-400",
  warning: "text-amber-700 dark:text-amber-400",
  problem: "text-rose-700 dark:text-rose-400",
  unknown: "text-slate-600 dark:text-slate-400",
} as const;

export function PreflightPanel({ value, enabled }: { value: unknown; enabled: boolean }) {
  const trpc = useTRPC();
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), 400);
    return () => clearTimeout(timer);
  }, [value]);
  const preflight = useQuery({
    ...trpc.loops.preflight.queryOptions(settled as never),
    enabled,
    retry: false,
    placeholderData: keepPreviousData,
  });
  const checks = preflight.data?.checks ?? [];
  if (!enabled || checks.length === 0) return null;
  return (
    <section
      aria-label="Preflight"
      data-testid="preflight"
      className="rounded-xl border border-slate-200 bg-white p-4 text-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <h2 className="font-medium">
        Before it starts{" "}
        <span className={preflight.data?.ok ? TONE.ok : TONE.problem}>
          {preflight.data?.ok ? "— ready" : "— fix these first"}
        </span>
      </h2>
      <ul className="mt-2 space-y-1">
        {checks.map((c) => (
          <li key={c.id} data-testid="preflight-check" data-status={c.status} className="flex gap-2">
            <span aria-hidden className={TONE[c.status]}>
              {ICON[c.status]}
            </span>
            <span className="min-w-0 break-words">
              <span className="font-medium">{c.label}</span>: {c.message}
              <span className="sr-only"> ({c.status})</span>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

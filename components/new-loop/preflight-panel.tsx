"use client";
// "Will it start?" on the New-loop form: the server's preflight (the agent's
// CLI on the server, every secret it needs) for the definition as it stands,
// re-checked a moment after the operator stops typing. The same checks refuse
// a loop that would start without them.
import { keepPreviousData, useMutation, useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc/client";
import { useSettled } from "@/components/shared/use-settled";
import { errorMessage } from "@/components/shared/trpc-errors";
import { Button } from "@/components/ui/button";
import { FormPanel } from "./form-panel";

const ICON = { ok: "✓", warning: "!", problem: "✗", unknown: "?" } as const;
const TONE = {
  ok: "text-emerald-700 dark:text-emerald-400",
  warning: "text-amber-700 dark:text-amber-400",
  problem: "text-rose-700 dark:text-rose-400",
  unknown: "text-slate-600 dark:text-slate-400",
} as const;

export function PreflightPanel({ value, enabled }: { value: unknown; enabled: boolean }) {
  const trpc = useTRPC();
  const settled = useSettled(value);
  const preflight = useQuery({
    ...trpc.loops.preflight.queryOptions(settled as never),
    enabled,
    retry: false,
    placeholderData: keepPreviousData,
  });
  const checks = preflight.data?.checks ?? [];
  // The definition's command checks, run once where the loop's first check will run.
  const run = useMutation(trpc.loops.preflightRun.mutationOptions());
  const hasChecks = ((settled as { scorers?: { kind?: unknown }[] } | null)?.scorers ?? []).some(
    (s) => s?.kind === "command-check",
  );
  if (!enabled || checks.length === 0) return null;
  return (
    <FormPanel
      label="Preflight"
      testId="preflight"
      title={
        <>
          Before it starts{" "}
          <span className={preflight.data?.ok ? TONE.ok : TONE.problem}>
            {preflight.data?.ok ? "— ready" : "— fix these first"}
          </span>
        </>
      }
    >
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
      {hasChecks && (
        <div className="mt-3 space-y-1">
          <Button
            size="sm"
            variant="secondary"
            pending={run.isPending}
            disabled={run.isPending}
            onClick={() => run.mutate(settled as never)}
          >
            Run the checks where the loop will
          </Button>
          {run.isError && (
            <p role="alert" className={TONE.problem}>
              {errorMessage(run.error)}
            </p>
          )}
          {run.data && (
            <ul data-testid="preflight-run" className="space-y-1">
              {run.data.note && <li className="text-xs text-slate-600 dark:text-slate-400">{run.data.note}</li>}
              {run.data.checks.map((c) => (
                <li key={c.id} data-status={c.status} className="flex gap-2">
                  <span aria-hidden className={TONE[c.status]}>
                    {ICON[c.status]}
                  </span>
                  <span className="min-w-0 break-words">
                    <span className="font-medium">{c.label}</span>: {c.message}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </FormPanel>
  );
}

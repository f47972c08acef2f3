"use client";
// Permission prompts inside an iteration (Claude Code asks before a tool call the
// loop's policy watches): each pending one with the exact command or diff, the
// tool, the risk, a countdown to its deadline and what happens then; operators
// approve or deny. For an agent without the hook, the page says prompts are not
// available. Decided prompts stay listed, with who decided (or the deadline).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { firstErrorMessage } from "@/components/shared/trpc-errors";
import { useNow } from "@/components/shared/use-now";
import { formatDuration } from "@/components/loops/format";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { LocalTime } from "@/components/ui/local-time";
import { useTRPC } from "@/lib/trpc/client";

const RISK_TONE: Record<string, BadgeTone> = { low: "info", medium: "warn", high: "bad" };

function Countdown({ deadline, serverNow }: { deadline: Date; serverNow: number }) {
  const left = new Date(deadline).getTime() - useNow(serverNow).getTime();
  return (
    <span className={`tabular-nums ${left < 60_000 ? "text-rose-700 dark:text-rose-400" : ""}`}>
      {left <= 0 ? "deadline passed: applying the default…" : formatDuration(left)}
    </span>
  );
}

export function PermissionPromptsPanel({ loopId, canOperate }: { loopId: string; canOperate: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const view = useQuery({
    ...trpc.permissions.ofLoop.queryOptions({ loopId }),
    // Live events refresh it; while a prompt waits, a slow poll also catches a deadline passing.
    refetchInterval: (q) => (q.state.data?.prompts.some((p) => p.status === "pending") ? 5000 : false),
  });
  const answer = useMutation(
    trpc.permissions.answer.mutationOptions({
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.permissions.ofLoop.queryKey({ loopId }) }),
    }),
  );
  const data = view.data;
  if (!data) return null;
  if (!data.available)
    return (
      <p data-testid="permission-prompts-unavailable" className="text-xs text-slate-600 dark:text-slate-400">
        {data.note}
      </p>
    );
  const pending = data.prompts.filter((p) => p.status === "pending");
  const decided = data.prompts.filter((p) => p.status !== "pending").slice(0, 5);
  if (pending.length === 0 && decided.length === 0) return null;
  const error = firstErrorMessage(answer.error);
  return (
    <section aria-label="Permission prompts" className="space-y-2">
      {error && (
        <p role="alert" className="text-sm text-rose-700 dark:text-rose-300">
          {error}
        </p>
      )}
      {pending.map((p) => (
        <div
          key={p.id}
          data-testid="permission-prompt"
          className="rounded-xl border-2 border-amber-400 bg-amber-50/60 p-4 text-sm dark:border-amber-600 dark:bg-amber-950/40"
        >
          <div className="flex flex-wrap items-center gap-2">
            <h2 className="font-semibold">
              The agent asks to run <code>{p.toolName}</code> (iteration {p.iteration})
            </h2>
            <Badge tone={RISK_TONE[p.risk] ?? "neutral"}>{p.risk} risk</Badge>
            <span className="ml-auto">
              Deadline: <Countdown deadline={p.deadlineAt} serverNow={view.dataUpdatedAt} />
            </span>
          </div>
          <pre className="mt-2 max-h-64 overflow-auto whitespace-pre-wrap rounded bg-white p-2 font-mono text-xs dark:bg-slate-900">
            {p.summary}
          </pre>
          <p className="mt-2 text-slate-700 dark:text-slate-300">
            Asked because {p.reason}. If nobody answers by the deadline, it is{" "}
            <strong>{p.defaultAction === "allow" ? "allowed" : "denied"}</strong>.
          </p>
          {canOperate && (
            <div className="mt-3 flex gap-2">
              <Button disabled={answer.isPending} onClick={() => answer.mutate({ id: p.id, decision: "allow" })}>
                Approve
              </Button>
              <Button
                variant="danger"
                disabled={answer.isPending}
                onClick={() => answer.mutate({ id: p.id, decision: "deny" })}
              >
                Deny
              </Button>
            </div>
          )}
        </div>
      ))}
      {decided.length > 0 && (
        <details>
          <summary className="cursor-pointer text-sm font-medium">Permission prompts answered</summary>
          <ul className="mt-1 divide-y divide-slate-200 text-sm dark:divide-slate-800" aria-label="Answered prompts">
            {decided.map((p) => (
              <li key={p.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-1">
                <Badge tone={p.status === "allowed" ? "good" : "bad"}>{p.status}</Badge>
                <code className="truncate">
                  {p.toolName}: {p.summary.split("\n")[0]}
                </code>
                <span className="text-slate-600 dark:text-slate-400">
                  {p.byDefault ? "by the deadline's default" : `by ${p.decidedBy ?? "?"}`}
                </span>
                {p.decidedAt && (
                  <LocalTime className="ml-auto text-xs text-slate-600 dark:text-slate-400" date={p.decidedAt} />
                )}
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}

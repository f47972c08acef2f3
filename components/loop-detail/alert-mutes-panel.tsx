"use client";
// Per-loop alert mutes and snoozes: which kinds of alert this loop may send
// to the channels in Settings → Alerts. Operators change them; everyone sees them.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { firstErrorMessage } from "@/components/shared/trpc-errors";
import { useNow } from "@/components/shared/use-now";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { LocalTime } from "@/components/ui/local-time";
import { useTRPC } from "@/lib/trpc/client";

// The same kinds as server/alert-kinds.ts; the server validates every value.
const KINDS = [
  ["attention", "Needs attention"],
  ["approval", "Approval gate opened"],
  ["budget", "Budget threshold"],
  ["runaway", "Runaway alarm"],
  ["health", "Silent agent / health"],
  ["loop_ended", "Loop ended"],
  ["usage_limit", "Usage limit wait"],
] as const;

export function AlertMutesPanel({ loopId, canChange }: { loopId: string; canChange: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const mutes = useQuery(trpc.alerts.mutes.queryOptions({ loopId }));
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.alerts.mutes.queryKey({ loopId }) });
  const mute = useMutation(trpc.alerts.mute.mutationOptions({ onSuccess: refresh }));
  const unmute = useMutation(trpc.alerts.unmute.mutationOptions({ onSuccess: refresh }));
  const now = useNow(mutes.dataUpdatedAt).getTime();
  const active = (kind: string) =>
    mutes.data?.find((m) => m.kind === kind && (!m.until || new Date(m.until).getTime() > now));
  const error = firstErrorMessage(mutes.error, mute.error, unmute.error);
  return (
    <div className="space-y-2 text-sm">
      <p className="text-slate-600 dark:text-slate-400">
        Which alerts this loop sends to the channels an admin set up in Settings → Alerts.
      </p>
      {error && (
        <p role="alert" className="text-rose-700 dark:text-rose-300">
          {error}
        </p>
      )}
      <ul className="divide-y divide-slate-100 dark:divide-slate-800" aria-label="Alert mutes">
        {KINDS.map(([kind, label]) => {
          const found = active(kind);
          return (
            <li key={kind} className="flex flex-wrap items-center gap-3 py-2">
              <span className="w-48">{label}</span>
              {!found ? (
                <Badge tone="good">on</Badge>
              ) : found.until ? (
                <Badge tone="warn">
                  snoozed until <LocalTime date={found.until} />
                </Badge>
              ) : (
                <Badge>muted</Badge>
              )}
              <span className="ml-auto" />
              {canChange &&
                (found ? (
                  <Button
                    variant="ghost"
                    aria-label={`Unmute ${label}`}
                    onClick={() => unmute.mutate({ loopId, kind })}
                  >
                    Unmute
                  </Button>
                ) : (
                  <>
                    <Button
                      variant="ghost"
                      aria-label={`Snooze ${label} for an hour`}
                      onClick={() => mute.mutate({ loopId, kind, minutes: 60 })}
                    >
                      Snooze 1 h
                    </Button>
                    <Button
                      variant="secondary"
                      aria-label={`Mute ${label}`}
                      onClick={() => mute.mutate({ loopId, kind })}
                    >
                      Mute
                    </Button>
                  </>
                ))}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

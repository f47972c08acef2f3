"use client";
// Per-loop alert mutes and snoozes: which kinds of alert this loop may send
// to the channels in Settings → Alerts. Operators change them; everyone sees them.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { firstErrorMessage } from "@/components/shared/trpc-errors";
import { useNow } from "@/components/shared/use-now";
import { Badge } from "@/components/ui/badge";
import { Button, type ButtonVariant } from "@/components/ui/button";
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

/** A button on a kind's row: `unmute` lifts its mute; otherwise it mutes, for `minutes` or for good. */
type MuteAction = { verb: string; variant: ButtonVariant; aria: string; unmute?: boolean; minutes?: number };

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
          // A muted kind can be unmuted; one that sends can be snoozed for an hour or muted for good.
          const actions: MuteAction[] = found
            ? [{ verb: "Unmute", variant: "ghost", aria: `Unmute ${label}`, unmute: true }]
            : [
                { verb: "Snooze 1 h", variant: "ghost", aria: `Snooze ${label} for an hour`, minutes: 60 },
                { verb: "Mute", variant: "secondary", aria: `Mute ${label}` },
              ];
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
                actions.map((a) => (
                  <Button
                    key={a.verb}
                    variant={a.variant}
                    aria-label={a.aria}
                    onClick={() =>
                      a.unmute ? unmute.mutate({ loopId, kind }) : mute.mutate({ loopId, kind, minutes: a.minutes })
                    }
                  >
                    {a.verb}
                  </Button>
                ))}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

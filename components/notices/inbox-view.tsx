"use client";
// The inbox: notices grouped per loop, each with its class, the words that
// say why and a link to where it happened; a loop's notices move to the
// archive once it has ended. Mutes are the signed-in user's own (stored on
// the server): a class for one loop, or a class everywhere.
import Link from "next/link";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { errorMessage } from "@/components/shared/trpc-errors";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { LocalTime } from "@/components/ui/local-time";
import { toast } from "@/components/ui/toast";
import { useTRPC, useTRPCClient } from "@/lib/trpc/client";
import { NOTICE_CLASS_LIST, NOTICE_LABELS, NOTICE_TONES, type InboxGroup, type NoticeClass } from "./notice-classes";
import { PushSettings } from "./push-settings";

type Mute = { loopId: string | null; class: NoticeClass | "*" };

function useMutes() {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const mutes = useQuery(trpc.notices.mutes.queryOptions());
  const set = useMutation({
    mutationFn: (input: Mute & { muted: boolean }) => client.notices.setMute.mutate(input),
    onSuccess: () => queryClient.invalidateQueries(trpc.notices.mutes.queryFilter()),
    onError: (error) => toast(errorMessage(error), "error", 8000),
  });
  const isMuted = (m: Mute) => (mutes.data ?? []).some((x) => x.loopId === m.loopId && x.class === m.class);
  return { isMuted, toggle: (m: Mute) => set.mutate({ ...m, muted: !isMuted(m) }), pending: set.isPending };
}

function MuteToggle({ mute, label, mutes }: { mute: Mute; label: string; mutes: ReturnType<typeof useMutes> }) {
  const muted = mutes.isMuted(mute);
  return (
    <label className="flex items-center gap-1 text-xs">
      <input type="checkbox" checked={muted} disabled={mutes.pending} onChange={() => mutes.toggle(mute)} />
      {label}
    </label>
  );
}

function Group({ group, mutes }: { group: InboxGroup; mutes: ReturnType<typeof useMutes> }) {
  return (
    <li data-testid="inbox-group" className="rounded-xl border border-slate-200 p-4 dark:border-slate-800">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <Link href={`/loops/${group.loopId}`} className="font-semibold underline">
          {group.loopName}
        </Link>
        <span className="text-xs text-slate-600 dark:text-slate-400">{group.loopStatus}</span>
      </div>
      <ul className="mt-2 space-y-1">
        {group.notices.map((n) => (
          <li
            key={n.id}
            data-testid="notice"
            data-class={n.class}
            className="flex flex-wrap items-baseline gap-2 text-sm"
          >
            <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${NOTICE_TONES[n.class]}`}>
              {NOTICE_LABELS[n.class]}
            </span>
            <Link href={n.url} className="underline">
              {n.excerpt}
            </Link>
            <span className="text-xs text-slate-500">
              <LocalTime date={n.at} />
            </span>
          </li>
        ))}
      </ul>
      {!group.archived && (
        <details className="mt-2">
          <summary className="cursor-pointer text-xs text-slate-600 dark:text-slate-400">
            Mute this loop&apos;s notices
          </summary>
          <div className="mt-1 flex flex-wrap gap-3">
            <MuteToggle mute={{ loopId: group.loopId, class: "*" }} label="all" mutes={mutes} />
            {NOTICE_CLASS_LIST.map((c) => (
              <MuteToggle key={c} mute={{ loopId: group.loopId, class: c }} label={NOTICE_LABELS[c]} mutes={mutes} />
            ))}
          </div>
        </details>
      )}
    </li>
  );
}

export function InboxView() {
  const trpc = useTRPC();
  const inbox = useQuery({ ...trpc.notices.inbox.queryOptions(), refetchInterval: 5000 });
  const mutes = useMutes();
  if (inbox.error) return <ErrorState title="The inbox could not be read" message={errorMessage(inbox.error)} />;
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Inbox</h1>
      <PushSettings />
      <section aria-label="Mute a class everywhere" className="flex flex-wrap items-center gap-3 text-sm">
        <span className="font-medium">Mute everywhere (push, for you):</span>
        {NOTICE_CLASS_LIST.map((c) => (
          <MuteToggle key={c} mute={{ loopId: null, class: c }} label={NOTICE_LABELS[c]} mutes={mutes} />
        ))}
      </section>
      {inbox.data?.open.length === 0 && (
        <EmptyState title="Nothing needs you">Notices from running loops show here.</EmptyState>
      )}
      <ul className="space-y-3">
        {inbox.data?.open.map((g) => (
          <Group key={g.loopId} group={g} mutes={mutes} />
        ))}
      </ul>
      {(inbox.data?.archived.length ?? 0) > 0 && (
        <details>
          <summary className="cursor-pointer font-medium">
            Archived: loops that have ended ({inbox.data?.archived.length})
          </summary>
          <ul className="mt-3 space-y-3">
            {inbox.data?.archived.map((g) => (
              <Group key={g.loopId} group={g} mutes={mutes} />
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

"use client";
// One live event stream per view: events go to `onEvent` at once (a view can
// show them in the same frame), and the queries they make stale are
// refreshed through a LiveDispatcher, coalesced per rule.
import { useQueryClient } from "@tanstack/react-query";
import { useSubscription } from "@trpc/tanstack-react-query";
import { useEffect, useState } from "react";
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/api/root";
import { useTRPC } from "@/lib/trpc/client";
import { LiveDispatcher, type RefreshRule } from "./live-dispatcher";

type Streamed = inferRouterOutputs<AppRouter>["events"]["stream"] extends AsyncIterable<infer T> ? T : never;
export type LiveEvent = Streamed extends { data: infer D } ? D : Streamed;
export type LiveRefresh = RefreshRule<LiveEvent>;
/** The newest event a server-rendered page reflects (`id`) and when the server read it (`at`, ms). */
export type LiveSince = { id: number; at: number };
/**
 * Older than this, a page's starting point is not used: a page restored from history
 * would replay everything since (old status changes among it) before its refetch.
 */
const SINCE_FRESH_MS = 30_000;

export function useLiveEvents({
  loopId,
  refresh,
  onEvent,
  defer,
  since,
}: {
  loopId?: string;
  /**
   * The newest event the page's data already reflects (read before it): the stream
   * replays what came after it, so its first start refetches nothing.
   */
  since?: LiveSince | null;
  refresh: LiveRefresh[];
  onEvent?: (event: LiveEvent) => void;
  /** Routine events, handled together on the page's next beat (see live-dispatcher.ts). */
  defer?: (event: LiveEvent) => boolean;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  // The first value only: a later one would restart the stream.
  const [from] = useState(() => (since && Date.now() - since.at < SINCE_FRESH_MS ? since.id : null));
  // Resumed from the page's own event, the first start has nothing to re-read (the replay brings it).
  const [dispatcher] = useState(() => new LiveDispatcher<LiveEvent>(queryClient, { replaysFirstStart: !!from }));

  useEffect(() => {
    dispatcher.configure(refresh, onEvent, defer);
  });
  useEffect(() => () => dispatcher.dispose(), [dispatcher]);

  const input = loopId ? { loopId, ...(from ? { lastEventId: String(from) } : {}) } : {};
  const subscription = useSubscription(
    trpc.events.stream.subscriptionOptions(input, {
      onStarted: () => dispatcher.started(),
      onData: (tracked) => dispatcher.handle(((tracked as { data?: unknown }).data ?? tracked) as LiveEvent),
    }),
  );
  return { status: subscription.status, error: subscription.error };
}

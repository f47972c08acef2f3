"use client";
// One live event stream per view: events go to `onEvent` at once (a view can
// show them in the same frame), and the queries they make stale are
// refreshed through a LiveDispatcher, coalesced per rule.
import { useQueryClient } from "@tanstack/react-query";
import { useSubscription } from "@trpc/tanstack-react-query";
import { useEffect, useRef, useState } from "react";
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/api/root";
import { useTRPC } from "@/lib/trpc/client";
import { LiveDispatcher, type RefreshRule } from "./live-dispatcher";

type Streamed = inferRouterOutputs<AppRouter>["events"]["stream"] extends AsyncIterable<infer T> ? T : never;
export type LiveEvent = Streamed extends { data: infer D } ? D : Streamed;
export type LiveRefresh = RefreshRule<LiveEvent>;

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
  since?: number | null;
  refresh: LiveRefresh[];
  onEvent?: (event: LiveEvent) => void;
  /** Routine events, handled together on the page's next beat (see live-dispatcher.ts). */
  defer?: (event: LiveEvent) => boolean;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [dispatcher] = useState(() => new LiveDispatcher<LiveEvent>(queryClient));

  useEffect(() => {
    dispatcher.configure(refresh, onEvent, defer);
  });
  useEffect(() => () => dispatcher.dispose(), [dispatcher]);

  // The first value only: a later one would restart the stream.
  const [from] = useState(since);
  const resumed = useRef(false);
  const input = loopId ? { loopId, ...(from ? { lastEventId: String(from) } : {}) } : {};
  const subscription = useSubscription(
    trpc.events.stream.subscriptionOptions(input, {
      onStarted: () => {
        // Resumed from the page's own event: the replay brings what it missed, nothing to re-read.
        // A reconnect refetches as before.
        if (from && !resumed.current) resumed.current = true;
        else dispatcher.started();
      },
      onData: (tracked) => dispatcher.handle(((tracked as { data?: unknown }).data ?? tracked) as LiveEvent),
    }),
  );
  return { status: subscription.status, error: subscription.error };
}

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

export function useLiveEvents({
  loopId,
  refresh,
  onEvent,
  defer,
}: {
  loopId?: string;
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

  const subscription = useSubscription(
    trpc.events.stream.subscriptionOptions(loopId ? { loopId } : {}, {
      onStarted: () => dispatcher.started(),
      onData: (tracked) => dispatcher.handle(((tracked as { data?: unknown }).data ?? tracked) as LiveEvent),
    }),
  );
  return { status: subscription.status, error: subscription.error };
}

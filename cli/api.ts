// The typed tRPC client the CLI talks through: it knows the server only by
// the AppRouter type. Queries and mutations over plain HTTP, live events over
// server-sent events (resumed from the last event id after a drop), every
// request carrying the API token as `Authorization: Bearer`.
import { createTRPCClient, httpLink, httpSubscriptionLink, splitLink } from "@trpc/client";
import { EventSource } from "eventsource";
import superjson from "superjson";
import type { AppRouter } from "../server/api/root";
import type { CliConfig } from "./config";

export type RalphClient = ReturnType<typeof createRalphClient>;

export function createRalphClient(config: CliConfig) {
  const url = `${config.url}/api/trpc`;
  const authorization = `Bearer ${config.token}`;
  return createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === "subscription",
        true: httpSubscriptionLink({
          url,
          transformer: superjson,
          EventSource,
          eventSourceOptions: {
            fetch: (input, init) => fetch(input, { ...init, headers: { ...init.headers, authorization } }),
          },
        }),
        false: httpLink({ url, transformer: superjson, headers: { authorization } }),
      }),
    ],
  });
}

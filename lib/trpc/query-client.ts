import { defaultShouldDehydrateQuery, QueryClient } from "@tanstack/react-query";
import superjson from "superjson";
import { keepNewerLoop } from "./newer-loop";
import { shareEqual } from "./share-equal";

export function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 5_000,
        refetchOnWindowFocus: false,
        // A running loop never steps back (newer-loop.ts); unchanged rows keep their identity (share-equal.ts).
        structuralSharing: (prev, next) => shareEqual(prev, keepNewerLoop(prev, next)),
      },
      dehydrate: {
        serializeData: superjson.serialize,
        // Pending queries stream to the browser too, so a server prefetch is never wasted.
        shouldDehydrateQuery: (query) => defaultShouldDehydrateQuery(query) || query.state.status === "pending",
      },
      hydrate: { deserializeData: superjson.deserialize },
    },
  });
}

import "server-only";
// tRPC for React Server Components: prefetch on the server, hydrate in the browser.
import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import { createTRPCOptionsProxy, type TRPCQueryOptions } from "@trpc/tanstack-react-query";
import { headers } from "next/headers";
import { cache, type ReactNode } from "react";
import { makeQueryClient } from "@/lib/trpc/query-client";
import { getAppRuntime } from "../jobs/app-runtime";
import { createContext } from "./context";
import { appRouter, createCaller } from "./root";

/** One QueryClient per request. */
export const getQueryClient = cache(makeQueryClient);

const createRscContext = cache(async () => createContext({ services: getAppRuntime().services, headers: new Headers(await headers()) }));

export const trpc = createTRPCOptionsProxy({
  ctx: createRscContext,
  router: appRouter,
  queryClient: getQueryClient,
});

/** Direct server-side calls, when a component needs the data itself. */
export const serverCaller = cache(async () => createCaller(await createRscContext()));

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function prefetch<T extends ReturnType<TRPCQueryOptions<any>>>(queryOptions: T) {
  void getQueryClient().prefetchQuery(queryOptions);
}

export function HydrateClient({ children }: { children: ReactNode }) {
  return <HydrationBoundary state={dehydrate(getQueryClient())}>{children}</HydrationBoundary>;
}

import "server-only";
// tRPC for React Server Components: prefetch on the server, hydrate in the
// browser. With ./client.tsx, the only bridge between pages and the server:
// pages call procedures, never server modules.
import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import { createTRPCOptionsProxy, type TRPCQueryOptions } from "@trpc/tanstack-react-query";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache, type ReactNode } from "react";
import { isPublicPage, loginPath } from "@/lib/auth/paths";
import { createRequestContext } from "@/server/api/context";
import { appRouter, createCaller } from "@/server/api/root";
import { getAppRuntime } from "@/server/jobs/app-runtime";
import { makeQueryClient } from "./query-client";

/** One QueryClient per request. */
export const getQueryClient = cache(makeQueryClient);

/**
 * The actor comes from the request's session cookie, as for the HTTP route.
 * A private page rendered without a live session (expired or revoked while
 * the cookie stayed) goes to sign-in instead of failing with UNAUTHORIZED;
 * proxy.ts tells us the path.
 */
const createRscContext = cache(async () => {
  const requestHeaders = new Headers(await headers());
  const ctx = await createRequestContext({ services: getAppRuntime().services, headers: requestHeaders });
  const path = requestHeaders.get("x-ralph-path");
  if (!ctx.actor && path && !isPublicPage(path)) redirect(loginPath(path));
  return ctx;
});

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

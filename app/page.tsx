import { Suspense } from "react";
import { LoopListView } from "@/components/loops/loop-list-view";
import { parseListParams, toListInput } from "@/components/loops/list-params";
import { SkeletonRows } from "@/components/ui/skeleton";
import { Toaster } from "@/components/ui/toast";
import { HydrateClient, prefetch, trpc } from "@/lib/trpc/server";

export const dynamic = "force-dynamic";

export default async function LoopsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  // Prefetch exactly what the browser will ask for, so a shared filtered link renders filled.
  prefetch(trpc.loops.list.queryOptions(toListInput(parseListParams(await searchParams))));
  prefetch(trpc.auth.me.queryOptions());
  return (
    <HydrateClient>
      <Suspense fallback={<SkeletonRows rows={4} label="Loading loops" className="h-14" />}>
        <LoopListView />
      </Suspense>
      <Toaster />
    </HydrateClient>
  );
}

import { LoopDetailView } from "@/components/loop-detail/loop-detail-view";
import { ITERATION_PAGE } from "@/components/loop-detail/iterations/iteration-page";
import { Toaster } from "@/components/ui/toast";
import { HydrateClient, prefetch, serverCaller, trpc } from "@/lib/trpc/server";
export const dynamic = "force-dynamic";

/** One title per loop, its name (or goal), so tabs and history tell loops apart. */
export async function generateMetadata({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  try {
    const { loop } = await (await serverCaller()).loops.byId({ id });
    const name = loop.name || loop.goal;
    return { title: name.length > 70 ? `${name.slice(0, 69)}…` : name };
  } catch {
    // Not found or not allowed: the page itself says which.
    return { title: "Loop" };
  }
}

export default async function LoopPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  // Everything the first screen shows, in the same response: the browser would otherwise ask for
  // the user and the first iterations only after hydrating, then render the timeline a second time.
  prefetch(trpc.loops.byId.queryOptions({ id }));
  prefetch(trpc.loops.iterations.queryOptions({ id, limit: ITERATION_PAGE }));
  prefetch(trpc.auth.me.queryOptions());
  return (
    <HydrateClient>
      <LoopDetailView id={id} />
      <Toaster />
    </HydrateClient>
  );
}

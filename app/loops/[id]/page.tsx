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

async function newestEventId(id: string): Promise<{ id: number; at: number } | null> {
  try {
    const at = Date.now();
    const { items } = await (await serverCaller()).events.list({ loopId: id, limit: 1 });
    return items[0] ? { id: items[0].id, at } : null;
  } catch {
    // Not found or not allowed: the page says which; its stream (if any) starts from now.
    return null;
  }
}

export default async function LoopPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  // The loop's newest event, read before anything the page shows: the browser's event stream
  // resumes right after it, so it replays whatever happens from here on and need not re-read
  // the page once it connects (which cost a second round of requests and renders at load).
  const since = await newestEventId(id);
  // Everything the first screen shows, in the same response: the browser would otherwise ask for
  // the user and the first iterations only after hydrating, then render the timeline a second time.
  prefetch(trpc.loops.byId.queryOptions({ id }));
  prefetch(trpc.loops.iterations.queryOptions({ id, limit: ITERATION_PAGE }));
  prefetch(trpc.auth.me.queryOptions());
  // The iteration in flight (null when none is), so its card is in the HTML too.
  prefetch(trpc.loops.live.queryOptions({ id }));
  return (
    <HydrateClient>
      <LoopDetailView id={id} since={since} />
      <Toaster />
    </HydrateClient>
  );
}

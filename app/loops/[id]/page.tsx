import { LoopDetailView } from "@/components/loop-detail/loop-detail-view";
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
  prefetch(trpc.loops.byId.queryOptions({ id }));
  return (
    <HydrateClient>
      <LoopDetailView id={id} />
      <Toaster />
    </HydrateClient>
  );
}

import { LoopDetailView } from "@/components/loop-detail/loop-detail-view";
import { Toaster } from "@/components/ui/toast";
import { HydrateClient, prefetch, serverCaller, trpc } from "@/server/api/rsc";

export const metadata = { title: "Loop" };
export const dynamic = "force-dynamic";

export default async function LoopPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  prefetch(trpc.loops.byId.queryOptions({ id }));
  const me = await (await serverCaller()).auth.me();
  return (
    <HydrateClient>
      <LoopDetailView id={id} canOperate={me?.role === "operator" || me?.role === "admin"} />
      <Toaster />
    </HydrateClient>
  );
}

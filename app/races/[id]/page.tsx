import { RaceCompareView } from "@/components/races/race-compare-view";
import { Toaster } from "@/components/ui/toast";
import { HydrateClient, prefetch, trpc } from "@/lib/trpc/server";

export const metadata = { title: "Race" };
export const dynamic = "force-dynamic";

export default async function RacePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  prefetch(trpc.races.byId.queryOptions({ id }));
  prefetch(trpc.auth.me.queryOptions());
  return (
    <HydrateClient>
      <RaceCompareView id={id} />
      <Toaster />
    </HydrateClient>
  );
}

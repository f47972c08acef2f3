import { RacesView } from "@/components/races/races-view";
import { HydrateClient, prefetch, trpc } from "@/lib/trpc/server";

export const metadata = { title: "Races" };
export const dynamic = "force-dynamic";

export default async function RacesPage() {
  prefetch(trpc.races.list.queryOptions({ limit: 25 }));
  prefetch(trpc.auth.me.queryOptions());
  return (
    <HydrateClient>
      <RacesView />
    </HydrateClient>
  );
}

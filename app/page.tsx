import { LoopTable } from "@/components/loops/loop-table";
import { HydrateClient, prefetch, trpc } from "@/server/api/rsc";

export const dynamic = "force-dynamic";

export default function LoopsPage() {
  prefetch(trpc.loops.list.queryOptions({}));
  return (
    <HydrateClient>
      <div className="mb-6 flex items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Loops</h1>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">Is each loop converging, what does it cost, is it stuck?</p>
        </div>
      </div>
      <LoopTable />
    </HydrateClient>
  );
}

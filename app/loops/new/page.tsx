import { NewLoopForm } from "@/components/new-loop/new-loop-form";
import { Toaster } from "@/components/ui/toast";
import { HydrateClient, prefetch, trpc } from "@/lib/trpc/server";

export const metadata = { title: "New loop" };
export const dynamic = "force-dynamic";

export default async function NewLoopPage({ searchParams }: { searchParams: Promise<{ from?: string | string[] }> }) {
  const raw = (await searchParams).from;
  const from = (Array.isArray(raw) ? raw[0] : raw)?.slice(0, 100) || undefined;
  prefetch(trpc.loops.formSchema.queryOptions());
  prefetch(trpc.loops.templates.queryOptions());
  if (from) prefetch(trpc.loops.definition.queryOptions({ id: from }));
  return (
    <HydrateClient>
      <h1 className="text-2xl font-semibold tracking-tight">{from ? "Clone loop" : "New loop"}</h1>
      <p className="mb-6 mt-1 max-w-3xl text-sm text-slate-600 dark:text-slate-400">
        One goal, an agent, and the evidence that decides when it is done. Every field comes from the same schema the
        API validates with; defaults are filled in.
      </p>
      <NewLoopForm from={from} />
      <Toaster />
    </HydrateClient>
  );
}

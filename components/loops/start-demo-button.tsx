"use client";
// One click from an empty dashboard to a running demo loop: create it from
// the demo template and open it.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useTRPC } from "@/lib/trpc/client";
import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/toast";
import { errorMessage } from "@/components/shared/trpc-errors";

export function StartDemoButton() {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const create = useMutation(trpc.loops.create.mutationOptions());

  async function start() {
    try {
      const templates = await queryClient.fetchQuery(trpc.loops.templates.queryOptions());
      const demo = templates.find((t) => t.id === "demo") ?? templates[0];
      if (!demo) throw new Error("No demo template is available");
      const { id } = await create.mutateAsync({ ...demo.definition, start: true });
      router.push(`/loops/${id}`);
    } catch (error) {
      toast(`Could not start the demo: ${errorMessage(error)}`, "error");
    }
  }

  return (
    <Button onClick={start} pending={create.isPending} disabled={create.isPending}>
      Start a demo loop
    </Button>
  );
}

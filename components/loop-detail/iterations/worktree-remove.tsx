"use client";
// Removes an ended loop's worktree folder (its branch and commits stay): an
// operator action, offered only once the loop has ended.
import { useMutation, useQuery } from "@tanstack/react-query";
import { useTRPC, useTRPCClient } from "@/lib/trpc/client";
import { errorMessage } from "@/components/shared/trpc-errors";
import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/toast";

export function WorktreeRemove({ loopId }: { loopId: string }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  // Only whether it is offered: the loop's refetch after every iteration does not redraw this.
  const offered = useQuery({
    ...trpc.loops.byId.queryOptions({ id: loopId }),
    // The server's decision: an ended loop that has a git workspace, for an operator (not on a demo loop).
    select: (d) => d.workspaceActions.removeWorktree.allowed,
  }).data;
  const remove = useMutation({
    mutationFn: () => client.loops.controls.removeWorktree.mutate({ id: loopId }),
    onSuccess: (r) => toast(`Worktree removed; branch ${r.branch} keeps the work`, "success"),
    onError: (e) => toast(errorMessage(e), "error"),
  });
  if (!offered) return null;
  return (
    <Button size="sm" variant="secondary" pending={remove.isPending} onClick={() => remove.mutate()}>
      Remove worktree
    </Button>
  );
}

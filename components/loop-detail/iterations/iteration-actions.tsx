"use client";
// What an operator can do from one iteration: roll the loop's files back to
// it (a new commit; the loop must be paused or ended) or fork a new loop that
// starts at its commit. The server decides; the buttons only say why not.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useTRPC, useTRPCClient } from "@/lib/trpc/client";
import { errorMessage } from "@/components/shared/trpc-errors";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, TextArea } from "@/components/ui/field";
import { toast } from "@/components/ui/toast";

export function IterationActions({
  loopId,
  number,
  hasSnapshot,
}: {
  loopId: string;
  number: number;
  hasSnapshot: boolean;
}) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const router = useRouter();
  // Only what the buttons show: an open row is not redrawn by each refresh of the loop.
  const loop = useQuery({
    ...trpc.loops.byId.queryOptions({ id: loopId }),
    select: (d) => ({ forkAllowed: d.availability.fork.allowed, rollback: d.workspaceActions.rollback }),
  });
  const [rollingBack, setRollingBack] = useState(false);
  // A fork asks first and carries one request id per confirmation: a double click makes one fork.
  const [forkRequest, setForkRequest] = useState<string | null>(null);
  const [reason, setReason] = useState("");
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.loops.pathKey() });
  const rollback = useMutation({
    mutationFn: () =>
      client.loops.controls.rollback.mutate({
        id: loopId,
        iteration: number,
        ...(reason.trim() ? { reason: reason.trim() } : {}),
      }),
    onSuccess: async (r) => {
      toast(`Rolled back to iteration ${r.iteration} (commit ${r.commit.slice(0, 10)})`);
      setRollingBack(false);
      await refresh();
    },
    onError: (e) => toast(errorMessage(e), "error"),
  });
  const fork = useMutation({
    mutationFn: (requestId: string) =>
      client.loops.controls.fork.mutate({ id: loopId, iteration: number, start: true, requestId }),
    onSuccess: (f) => {
      setForkRequest(null);
      toast(`Forked from iteration ${number}`);
      router.push(`/loops/${f.id}`);
    },
    onError: (e) => toast(errorMessage(e), "error"),
  });
  const data = loop.data;
  if (!data || !data.forkAllowed) return null;
  // Offered only where there is something to roll back to; whether now, the server says (and why not).
  const offerRollback = hasSnapshot;
  const why = data.rollback.allowed ? undefined : (data.rollback.reason ?? "not allowed now");
  return (
    <div className="flex flex-wrap gap-2">
      {offerRollback && (
        <Button size="sm" variant="secondary" disabled={!!why} title={why} onClick={() => setRollingBack(true)}>
          Roll back to #{number}
        </Button>
      )}
      <Button size="sm" variant="secondary" onClick={() => setForkRequest(crypto.randomUUID())}>
        Fork from #{number}
      </Button>
      {offerRollback && why && <span className="text-xs text-slate-500 dark:text-slate-400">Roll back: {why}.</span>}
      {forkRequest && (
        <Dialog
          open
          onClose={() => setForkRequest(null)}
          title={`Fork from iteration ${number}`}
          description="Starts a new loop from the checkpoint written after this iteration: same goal and agent, its history up to here. This loop is left as it is."
        >
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => setForkRequest(null)}>
              Cancel
            </Button>
            <Button pending={fork.isPending} onClick={() => fork.mutate(forkRequest)}>
              Fork and start
            </Button>
          </div>
        </Dialog>
      )}
      {rollingBack && (
        <Dialog
          open
          onClose={() => setRollingBack(false)}
          title={`Roll back to iteration ${number}`}
          description="The files return to how this iteration left them, recorded as a new commit on the loop branch (history is kept). The next prompt says so, with your reason."
        >
          <form
            noValidate
            className="space-y-4"
            onSubmit={(e) => {
              e.preventDefault();
              rollback.mutate();
            }}
          >
            <Field
              id={`rollback-reason-${number}`}
              label="Reason"
              hint="Recorded in the audit log and told to the agent"
            >
              <TextArea
                id={`rollback-reason-${number}`}
                value={reason}
                onChange={(e) => setReason(e.target.value)}
                rows={3}
              />
            </Field>
            <div className="flex justify-end gap-2">
              <Button variant="secondary" onClick={() => setRollingBack(false)}>
                Cancel
              </Button>
              <Button type="submit" pending={rollback.isPending} disabled={rollback.isPending}>
                Roll back
              </Button>
            </div>
          </form>
        </Dialog>
      )}
    </div>
  );
}

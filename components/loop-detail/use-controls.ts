"use client";
// Sending operator controls and showing each one as pending until the
// runtime has applied it: a control is pending while its request is in
// flight (mutation plus the refetch that follows) and then for as long as the
// loop lists a request of its kind among its pending controls, whichever tab
// (or CLI) sent it: every tab shows the same pending state.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useCallback, useMemo, useState } from "react";
import { useTRPC, useTRPCClient } from "@/lib/trpc/client";
import { errorMessage } from "@/components/shared/trpc-errors";
import { toast } from "@/components/ui/toast";
import { requestKindOf, type ControlName } from "./control-names";

export interface ControlInput {
  reason?: string;
  message?: string;
  comment?: string;
  patch?: Record<string, unknown>;
  iteration?: number;
  /** A fork's request id, made once per dialog: the server makes one fork however often it arrives. */
  requestId?: string;
}

const DONE: Partial<Record<ControlName, string>> = {
  interrupt: "Interrupt requested: the loop pauses after this iteration",
  kill: "Kill requested: the running agent is stopped",
  resume: "Resume requested",
  forceHandoff: "Handoff requested: the next iteration starts from a fresh context",
  nudge: "Nudge sent: it goes into the next iteration's input",
  approve: "Approved",
  reject: "Rejected",
  requestChanges: "Changes requested: the comment goes into the next iteration's input",
  terminate: "Terminate requested",
  updateLimits: "Limits updated",
  start: "Loop started",
};

type Sent = { forkId?: string };

/** `pendingKinds`: the kinds of the loop's pending requests (`loops.byId`'s `pendingControls`). */
export function useControls(loopId: string, pendingKinds: string[]) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const router = useRouter();
  const [inFlight, setInFlight] = useState<Partial<Record<ControlName, boolean>>>({});

  // One mutation for every control; several may be in flight at once, so
  // pending state is kept per control rather than read from the mutation.
  const mutation = useMutation({
    mutationFn: async ({ name, input }: { name: ControlName; input: ControlInput }): Promise<Sent> => {
      const base = { id: loopId, ...(input.reason?.trim() ? { reason: input.reason.trim() } : {}) };
      const c = client.loops.controls;
      const comment = input.comment?.trim() ? { comment: input.comment.trim() } : {};
      switch (name) {
        case "share":
          return {};
        case "start":
          await c.start.mutate(base);
          return {};
        case "fork": {
          const once = input.requestId ? { requestId: input.requestId } : {};
          const fork = await c.fork.mutate({ ...base, iteration: input.iteration ?? 0, start: true, ...once });
          return { forkId: fork.id };
        }
        default: {
          // "applied" took effect already; "stored" stays pending while the loop lists it.
          await (name === "nudge"
            ? c.nudge.mutate({ ...base, message: input.message ?? "" })
            : name === "approve" || name === "reject"
              ? c[name].mutate({ ...base, ...comment })
              : name === "requestChanges"
                ? c.requestChanges.mutate({ ...base, comment: input.comment ?? "" })
                : name === "updateLimits"
                  ? c.updateLimits.mutate({ ...base, patch: input.patch ?? {} })
                  : c[name].mutate(base));
          return {};
        }
      }
    },
    onMutate: ({ name }) => setInFlight((s) => ({ ...s, [name]: true })),
    onSuccess: async ({ forkId }, { name, input }) => {
      if (forkId) {
        toast(`Forked from iteration ${input.iteration}`, "success");
        router.push(`/loops/${forkId}`);
        return;
      }
      if (name === "share") return;
      toast(DONE[name] ?? "Done", "success");
      // Refetch before the button stops spinning, so "pending" hands over to the loop's own list.
      await queryClient.invalidateQueries(trpc.loops.byId.queryFilter({ id: loopId }));
    },
    onError: (error) => toast(errorMessage(error), "error", 8000),
    onSettled: (_data, _error, { name }) => setInFlight((s) => ({ ...s, [name]: false })),
  });

  // Stable across refetches that change nothing here, so the control bar is not redrawn by them.
  const { mutateAsync } = mutation;
  /** Sends one control; true when the server took it. */
  const send = useCallback(
    (name: ControlName, input: ControlInput = {}): Promise<boolean> =>
      mutateAsync({ name, input }).then(
        () => true,
        () => false,
      ),
    [mutateAsync],
  );

  const pendingKey = pendingKinds.join("\n");
  const isPending = useCallback(
    (name: ControlName) => !!inFlight[name] || pendingKey.split("\n").includes(requestKindOf(name)),
    [inFlight, pendingKey],
  );
  return useMemo(() => ({ send, isPending }), [send, isPending]);
}

/** What every control dialog is given: close it, confirm it (true when the server accepted), and whether a request is in flight. */
export type DialogActions = {
  onClose: () => void;
  onConfirm: (input: ControlInput) => Promise<boolean>;
  pending: boolean;
};

"use client";
// Sending operator controls and showing each one as pending until the
// runtime has applied it: a control is pending while its request is in
// flight (mutation plus the refetch that follows) and then for as long as the
// loop still lists it among its pending controls.
import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useTRPC, useTRPCClient } from "@/lib/trpc/client";
import { errorMessage } from "@/components/shared/trpc-errors";
import { toast } from "@/components/ui/toast";
import type { ControlName } from "./control-rules";

export interface ControlInput {
  reason?: string;
  message?: string;
  comment?: string;
  patch?: Record<string, unknown>;
  iteration?: number;
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

export function useControls(loopId: string, pendingIds: string[]) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const router = useRouter();
  const [inFlight, setInFlight] = useState<Partial<Record<ControlName, boolean>>>({});
  const [stored, setStored] = useState<Partial<Record<ControlName, string>>>({});

  async function send(name: ControlName, input: ControlInput = {}): Promise<boolean> {
    setInFlight((s) => ({ ...s, [name]: true }));
    const base = { id: loopId, ...(input.reason?.trim() ? { reason: input.reason.trim() } : {}) };
    try {
      let requestId: string | null = null;
      let note: string | null = null;
      const l = client.loops;
      switch (name) {
        case "start":
          await l.start.mutate(base);
          break;
        case "fork": {
          const fork = await l.fork.mutate({ ...base, iteration: input.iteration ?? 0, start: true });
          toast(`Forked from iteration ${input.iteration}`, "success");
          router.push(`/loops/${fork.id}`);
          return true;
        }
        case "share":
          return true;
        default: {
          const outcome =
            name === "nudge"
              ? await l.nudge.mutate({ ...base, message: input.message ?? "" })
              : name === "approve" || name === "reject"
                ? await l[name].mutate({ ...base, ...(input.comment?.trim() ? { comment: input.comment.trim() } : {}) })
                : name === "requestChanges"
                  ? await l.requestChanges.mutate({ ...base, comment: input.comment ?? "" })
                  : name === "updateLimits"
                    ? await l.updateLimits.mutate({ ...base, patch: input.patch ?? {} })
                    : await l[name].mutate(base);
          if (outcome.outcome === "noop") note = outcome.note;
          else requestId = outcome.requestId;
        }
      }
      if (requestId) setStored((s) => ({ ...s, [name]: requestId }));
      toast(note ? `Nothing to do: ${note}` : (DONE[name] ?? "Done"), note ? "info" : "success");
      // Refetch before the button stops spinning, so "pending" hands over to the loop's own list.
      await queryClient.invalidateQueries(trpc.loops.byId.queryFilter({ id: loopId }));
      return true;
    } catch (error) {
      toast(errorMessage(error), "error", 8000);
      return false;
    } finally {
      setInFlight((s) => ({ ...s, [name]: false }));
    }
  }

  const isPending = (name: ControlName) => !!inFlight[name] || (!!stored[name] && pendingIds.includes(stored[name]!));
  return { send, isPending };
}

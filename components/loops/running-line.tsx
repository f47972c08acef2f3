"use client";
// "running · 2 min 10 s · last output 3 s ago" under a running loop's status in the list.
import { formatDuration } from "./format";
import type { LoopSummary } from "@/components/shared/api-types";
import { useNow } from "@/components/shared/use-now";

export function RunningLine({ loop }: { loop: Pick<LoopSummary, "status" | "inflightStartedAt" | "live"> }) {
  const now = useNow().getTime();
  if (loop.status !== "running" || !loop.inflightStartedAt) return null;
  const elapsed = now - new Date(loop.inflightStartedAt).getTime();
  const output = loop.live?.outputAt;
  return (
    <span className="text-xs text-slate-600 dark:text-slate-300" data-testid="running-line">
      running · {formatDuration(Math.max(0, elapsed))}
      {output != null ? ` · last output ${Math.max(0, Math.round((now - output) / 1000))} s ago` : " · no output yet"}
    </span>
  );
}

"use client";
// "running · 2 min 10 s · last output 3 s ago" under a running loop's status in the list.
import { formatDuration } from "./format";
import type { LoopSummary } from "@/components/shared/api-types";
import { useNowText } from "@/components/shared/use-now";

type Running = Pick<LoopSummary, "status" | "inflightStartedAt" | "live">;

export function RunningLine({ loop }: { loop: Running }) {
  if (loop.status !== "running" || !loop.inflightStartedAt) return null;
  return <RunningText startedAt={new Date(loop.inflightStartedAt).getTime()} outputAt={loop.live?.outputAt ?? null} />;
}

/** Its own component: only this text re-renders, and only when it changes. */
function RunningText({ startedAt, outputAt }: { startedAt: number; outputAt: number | null }) {
  const text = useNowText((now) => {
    const t = now.getTime();
    const output =
      outputAt != null ? ` · last output ${Math.max(0, Math.round((t - outputAt) / 1000))} s ago` : " · no output yet";
    return `running · ${formatDuration(Math.max(0, t - startedAt))}${output}`;
  });
  return (
    <span className="text-xs text-slate-600 dark:text-slate-300" data-testid="running-line">
      {text}
    </span>
  );
}

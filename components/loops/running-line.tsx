"use client";
// "running · 2 min 10 s · last output 3 s ago" under a running loop's status in the list.
// A running loop always has this line, between iterations too: a line that came and
// went with each agent call moved every row below it (layout shift on phones).
import { formatDuration } from "./format";
import type { LoopSummary } from "@/components/shared/api-types";
import { useNowText } from "@/components/shared/use-now";

type Running = Pick<LoopSummary, "status" | "inflightStartedAt" | "live">;

export function RunningLine({ loop, className = "" }: { loop: Running; className?: string }) {
  if (loop.status !== "running") return null;
  if (!loop.inflightStartedAt) return <Line text="running · between iterations" className={className} />;
  return (
    <RunningText
      startedAt={new Date(loop.inflightStartedAt).getTime()}
      outputAt={loop.live?.outputAt ?? null}
      className={className}
    />
  );
}

/** Its own component: only this text re-renders, and only when it changes. */
function RunningText({
  startedAt,
  outputAt,
  className,
}: {
  startedAt: number;
  outputAt: number | null;
  className: string;
}) {
  const text = useNowText((now) => {
    const t = now.getTime();
    const output =
      outputAt != null ? ` · last output ${Math.max(0, Math.round((t - outputAt) / 1000))} s ago` : " · no output yet";
    return `running · ${formatDuration(Math.max(0, t - startedAt))}${output}`;
  });
  return <Line text={text} className={className} />;
}

function Line({ text, className }: { text: string; className: string }) {
  return (
    <span className={`text-xs text-slate-600 dark:text-slate-300 ${className}`} data-testid="running-line">
      {text}
    </span>
  );
}

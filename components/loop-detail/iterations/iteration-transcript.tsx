"use client";
// What the agent said and did in one iteration (Claude Code, Codex), read on
// demand from the lines stored with it, as the same conversation the live
// card showed; the raw lines one click away. Other agents have none: nothing
// is drawn.
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc/client";
import {
  formatName,
  TranscriptEntries,
  TranscriptModeSwitch,
  useTranscript,
  useTranscriptMode,
} from "@/components/transcript/transcript-view";

const NONE: string[] = [];

export function IterationTranscript({ loopId, number, attempt }: { loopId: string; number: number; attempt: number }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.loops.iterationTranscript.queryOptions({ id: loopId, number, attempt }));
  const lines = query.data?.lines ?? NONE;
  const transcript = useTranscript(lines);
  const [mode, setMode] = useTranscriptMode();
  if (transcript.format === "plain") return null;
  const skipped = query.data?.skipped ?? 0;
  const note = skipped > 0 ? `${skipped.toLocaleString("en-US")} lines in the middle were not kept.` : undefined;
  return (
    <section className="min-w-0 lg:col-span-2" data-testid="iteration-transcript">
      <div className="mb-1 flex flex-wrap items-center justify-between gap-2">
        <h4 className="text-xs font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400">
          Transcript · {formatName(transcript)}
        </h4>
        <TranscriptModeSwitch mode={mode} onChange={setMode} label={`Show iteration ${number}'s transcript as`} />
      </div>
      {mode === "conversation" ? (
        <TranscriptEntries
          transcript={transcript}
          label={`What the agent said and did in iteration ${number}`}
          note={note}
          className="max-h-[32rem]"
        />
      ) : (
        <pre
          aria-label={`Raw output lines of iteration ${number}`}
          tabIndex={0}
          data-testid="iteration-transcript-raw"
          className="max-h-[32rem] overflow-auto whitespace-pre-wrap break-all rounded-lg bg-slate-900 p-2 font-mono text-xs text-slate-100"
        >
          {note ? `(${note})\n` : ""}
          {lines.join("\n")}
        </pre>
      )}
    </section>
  );
}

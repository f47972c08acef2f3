"use client";
// An agent's turn as a conversation, with its raw lines one click away. Used
// by the live card (the tail of the output, re-read on every batch) and the
// iteration detail (the stored lines). Other commands' output is `plain`:
// callers keep their text view (`useTranscript` says which).
import { forwardRef, useMemo, useState, type ReactNode } from "react";
import { transcriptOf, type Transcript } from "@/lib/transcript/transcript";
import { TranscriptItem } from "./transcript-entries";

export function useTranscript(lines: readonly string[]): Transcript {
  return useMemo(() => transcriptOf(lines), [lines]);
}

const FORMAT_NAME = { "claude-code": "Claude Code", codex: "Codex", plain: "Output" } as const;

export type TranscriptMode = "conversation" | "raw";

/** The Conversation / Raw lines switch. */
export function TranscriptModeSwitch({
  mode,
  onChange,
  label,
}: {
  mode: TranscriptMode;
  onChange: (mode: TranscriptMode) => void;
  label: string;
}) {
  const button = (value: TranscriptMode, text: string) => (
    <button
      type="button"
      aria-pressed={mode === value}
      onClick={() => onChange(value)}
      className={`rounded-md px-2 py-0.5 text-xs font-medium ${
        mode === value
          ? "bg-white text-slate-900 shadow-sm ring-1 ring-slate-200 dark:bg-slate-700 dark:text-white dark:ring-slate-600"
          : "text-slate-600 hover:text-slate-900 dark:text-slate-300 dark:hover:text-white"
      }`}
    >
      {text}
    </button>
  );
  return (
    <div
      role="group"
      aria-label={label}
      className="inline-flex gap-0.5 rounded-lg bg-slate-100 p-0.5 dark:bg-slate-800"
    >
      {button("conversation", "Conversation")}
      {button("raw", "Raw lines")}
    </div>
  );
}

export function useTranscriptMode() {
  return useState<TranscriptMode>("conversation");
}

/** The entries, scrollable; `note` goes above them (lines left out, and so on). */
export const TranscriptEntries = forwardRef<
  HTMLOListElement,
  { transcript: Transcript; label: string; note?: ReactNode; className?: string; testId?: string } & Record<
    `data-${string}`,
    string | number | undefined
  >
>(function TranscriptEntries({ transcript, label, note, className = "", testId, ...data }, ref) {
  return (
    <ol
      ref={ref}
      aria-label={label}
      tabIndex={0}
      data-testid={testId}
      data-format={transcript.format}
      {...data}
      className={`space-y-1.5 overflow-auto rounded-lg border border-slate-200 bg-slate-50/60 p-2 dark:border-slate-800 dark:bg-slate-950/40 ${className}`}
    >
      {(note || transcript.droppedEntries > 0) && (
        <li className="px-1 text-[11px] text-slate-600 dark:text-slate-400">
          {note}
          {transcript.droppedEntries > 0 ? ` ${transcript.droppedEntries} earlier steps not shown.` : ""}
        </li>
      )}
      {transcript.entries.length === 0 && (
        <li className="px-1 text-xs text-slate-600 dark:text-slate-400">Nothing said or done yet.</li>
      )}
      {transcript.entries.map((e) => (
        <li key={e.key}>
          <TranscriptItem e={e} />
        </li>
      ))}
    </ol>
  );
});

export const formatName = (t: Transcript) => FORMAT_NAME[t.format];

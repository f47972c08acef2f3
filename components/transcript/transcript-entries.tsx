"use client";
// One transcript entry each: the agent's words, its thinking, each tool call
// (name, one-line summary, its input and result behind a click), retries,
// errors and the final result. Everything is rendered as text (React escapes
// it): an agent's output is never HTML here.
import { memo } from "react";
import type { TranscriptEntry } from "@/lib/transcript/transcript";

type Of<K extends TranscriptEntry["kind"]> = Extract<TranscriptEntry, { kind: K }>;

const PRE =
  "max-h-64 overflow-auto whitespace-pre-wrap break-words rounded-md bg-slate-50 p-2 font-mono text-xs leading-relaxed text-slate-800 dark:bg-slate-950 dark:text-slate-200";

function StatusIcon({ status }: { status: Of<"tool">["status"] }) {
  if (status === "running")
    return (
      <span
        role="img"
        aria-label="running"
        className="inline-block h-3 w-3 shrink-0 animate-spin rounded-full border-2 border-sky-500 border-t-transparent"
      />
    );
  return status === "ok" ? (
    <span
      role="img"
      aria-label="succeeded"
      className="w-3 shrink-0 text-center font-bold text-emerald-600 dark:text-emerald-400"
    >
      ✓
    </span>
  ) : (
    <span
      role="img"
      aria-label="failed"
      className="w-3 shrink-0 text-center font-bold text-rose-600 dark:text-rose-400"
    >
      ✗
    </span>
  );
}

function ToolCall({ e }: { e: Of<"tool"> }) {
  const showInput = e.input.trim() !== "" && e.input.trim() !== e.summary.trim();
  const tone =
    e.status === "error"
      ? "border-rose-200 dark:border-rose-900"
      : e.status === "running"
        ? "border-sky-300 dark:border-sky-800"
        : "border-slate-200 dark:border-slate-800";
  return (
    <details
      className={`group rounded-lg border bg-white dark:bg-slate-900 ${tone}`}
      data-testid="transcript-tool"
      data-status={e.status}
    >
      <summary className="flex cursor-pointer list-none items-center gap-2 px-2 py-1.5 text-xs [&::-webkit-details-marker]:hidden">
        <StatusIcon status={e.status} />
        <span className="shrink-0 font-mono font-semibold text-slate-900 dark:text-slate-100">{e.name}</span>
        {e.summary && (
          <span className="min-w-0 truncate font-mono text-slate-600 dark:text-slate-300" title={e.summary}>
            {e.summary}
          </span>
        )}
        {typeof e.exitCode === "number" && e.exitCode !== 0 && (
          <span className="shrink-0 rounded bg-rose-50 px-1 font-mono text-rose-700 dark:bg-rose-950 dark:text-rose-300">
            exit {e.exitCode}
          </span>
        )}
        <span aria-hidden className="ml-auto shrink-0 text-slate-400 transition-transform group-open:rotate-90">
          ›
        </span>
      </summary>
      <div className="space-y-2 border-t border-slate-100 p-2 dark:border-slate-800">
        {showInput && (
          <div>
            <p className="mb-0.5 text-[11px] font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-400">
              Input
            </p>
            <pre className={PRE} tabIndex={0} aria-label={`Input of ${e.name}`}>
              {e.input}
            </pre>
          </div>
        )}
        <div>
          <p className="mb-0.5 text-[11px] font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-400">
            Result
          </p>
          {e.result === null ? (
            <p className="text-xs text-slate-600 dark:text-slate-400">
              {e.status === "running" ? "Running…" : "No output."}
            </p>
          ) : (
            <pre className={PRE} tabIndex={0} aria-label={`Result of ${e.name}`}>
              {e.result || "(empty)"}
            </pre>
          )}
        </div>
      </div>
    </details>
  );
}

function Line({ icon, tone, children }: { icon: string; tone: string; children: React.ReactNode }) {
  return (
    <div className={`flex items-start gap-2 rounded-md px-2 py-1 text-xs ${tone}`}>
      <span aria-hidden className="w-3 shrink-0 text-center">
        {icon}
      </span>
      <span className="min-w-0 whitespace-pre-wrap break-words">{children}</span>
    </div>
  );
}

export const TranscriptItem = memo(function TranscriptItem({ e }: { e: TranscriptEntry }) {
  switch (e.kind) {
    case "session":
      return (
        <p className="truncate px-1 font-mono text-[11px] text-slate-600 dark:text-slate-400" title={e.text}>
          {e.text}
        </p>
      );
    case "text":
      return (
        <div className="px-1 py-0.5" data-testid="transcript-text">
          <p className="whitespace-pre-wrap break-words text-sm leading-relaxed text-slate-900 dark:text-slate-100">
            {e.text}
            {e.streaming && (
              <span
                role="img"
                aria-label="writing"
                className="ml-0.5 inline-block h-3.5 w-1.5 animate-pulse rounded-sm bg-sky-500 align-middle"
              />
            )}
          </p>
        </div>
      );
    case "reasoning":
      return (
        <details className="group px-1">
          <summary className="cursor-pointer list-none text-xs italic text-slate-600 dark:text-slate-400 [&::-webkit-details-marker]:hidden">
            <span aria-hidden className="mr-1 inline-block transition-transform group-open:rotate-90">
              ›
            </span>
            Thinking{e.streaming ? "…" : ""}:{" "}
            <span className="not-italic">{e.text.split("\n")[0]?.replaceAll("**", "")}</span>
          </summary>
          <p className="mt-1 whitespace-pre-wrap break-words border-l-2 border-slate-200 pl-2 text-xs text-slate-600 dark:border-slate-700 dark:text-slate-400">
            {e.text}
          </p>
        </details>
      );
    case "tool":
      return <ToolCall e={e} />;
    case "retry":
      return (
        <Line icon="↻" tone="bg-amber-50 text-amber-900 dark:bg-amber-950/60 dark:text-amber-200">
          <span data-testid="transcript-retry">{e.text}</span>
        </Line>
      );
    case "error":
      return (
        <Line icon="!" tone="bg-rose-50 text-rose-900 dark:bg-rose-950/60 dark:text-rose-200">
          {e.text}
        </Line>
      );
    case "notice":
      return (
        <Line icon="i" tone="text-slate-600 dark:text-slate-400">
          {e.text}
        </Line>
      );
    case "todo":
      return (
        <ul className="space-y-0.5 rounded-md border border-slate-200 px-2 py-1 text-xs dark:border-slate-800">
          {e.items.map((item, i) => (
            <li key={i} className={item.done ? "text-slate-500 line-through dark:text-slate-400" : ""}>
              <span aria-hidden>{item.done ? "☑" : "☐"}</span> {item.text}
            </li>
          ))}
        </ul>
      );
    case "result":
      return (
        <div
          data-testid="transcript-result"
          className={`flex flex-wrap items-baseline gap-x-2 rounded-lg border px-2 py-1.5 text-xs ${
            e.ok
              ? "border-emerald-200 bg-emerald-50 text-emerald-900 dark:border-emerald-900 dark:bg-emerald-950/60 dark:text-emerald-200"
              : "border-rose-200 bg-rose-50 text-rose-900 dark:border-rose-900 dark:bg-rose-950/60 dark:text-rose-200"
          }`}
        >
          <span className="font-semibold">
            {e.ok ? "✓" : "✗"} {e.text}
          </span>
          {e.detail && <span className="tabular-nums opacity-90">{e.detail}</span>}
        </div>
      );
    case "raw":
      return (
        <pre className="whitespace-pre-wrap break-all px-1 font-mono text-[11px] text-slate-600 dark:text-slate-400">
          {e.text}
        </pre>
      );
  }
});

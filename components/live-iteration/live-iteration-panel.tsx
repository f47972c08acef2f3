"use client";
// The iteration in flight, at the top of the timeline: elapsed time, phase,
// health, nudges and escalations as they happen, tool calls and the output
// tail (with a "follow" toggle); Claude Code's and Codex's output read as a
// conversation (components/transcript), their raw lines one click away. The view comes from `loops.live`; the page's
// event stream folds newer rows into the same query (see live-fold.ts).
// Scrolled out of view, the card holds still (no render, no DOM change, no
// frame for each line and clock second) and catches up as it comes back.
import { useQuery } from "@tanstack/react-query";
import { memo, useEffect, useRef, useState, type RefObject } from "react";
import { useTRPC } from "@/lib/trpc/client";
import { formatDuration } from "@/components/loops/format";
import { useNowText } from "@/components/shared/use-now";
import { useInView } from "@/components/shared/use-in-view";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import {
  TranscriptEntries,
  TranscriptModeSwitch,
  useTranscript,
  useTranscriptMode,
} from "@/components/transcript/transcript-view";
import type { LiveView } from "./live-fold";

// Keyed by the router's enums: a phase or health the server adds fails to compile here until named.
const PHASES: Record<LiveView["phase"], string> = {
  agent: "agent running",
  scorers: "scoring",
  verifier: "verifying",
  reflector: "reflecting",
};
const HEALTH_TONE: Record<LiveView["health"], BadgeTone> = {
  healthy: "good",
  degraded: "warn",
  stuck: "bad",
  failing: "bad",
  terminated: "bad",
};

const ago = (at: number | null, now: number) =>
  at === null ? "never" : `${Math.max(0, Math.round((now - at) / 1000))} s ago`;

export function LiveIterationPanel({ loopId, inFlight }: { loopId: string; inFlight: boolean }) {
  const trpc = useTRPC();
  const live = useQuery({ ...trpc.loops.live.queryOptions({ id: loopId }), enabled: inFlight });
  if (!inFlight || !live.data) return null;
  return <LiveIterationCard view={live.data} serverNow={live.dataUpdatedAt} />;
}

/** The clock texts on their own, so the card (and its output) does not re-render every second. */
function LiveClock({
  view,
  serverNow,
  paused,
}: {
  view: Pick<LiveView, "startedAt" | "outputAt" | "heartbeatAt">;
  /** When the server read the view: the time the server's HTML (and hydration) shows. */
  serverNow: number;
  /** Out of view: the texts stop ticking. */
  paused: boolean;
}) {
  const { startedAt, outputAt, heartbeatAt } = view;
  const elapsed = useNowText((now) => `running · ${formatDuration(now.getTime() - startedAt)}`, serverNow, paused);
  const heard = useNowText(
    (now) => `last output ${ago(outputAt, now.getTime())} · heartbeat ${ago(heartbeatAt, now.getTime())}`,
    serverNow,
    paused,
  );
  return (
    <>
      <span className="text-slate-600 dark:text-slate-300" data-testid="live-elapsed">
        {elapsed}
      </span>
      <span className="text-slate-600 dark:text-slate-300" data-testid="live-heartbeat">
        {heard}
      </span>
    </>
  );
}

/** `value` while `hold` is off; while on, the value it had when it came on. */
function useHeld<T>(value: T, hold: boolean): T {
  const [held, setHeld] = useState(value);
  if (!hold && held !== value) setHeld(value);
  return hold ? held : value;
}

function LiveIterationCard({ view, serverNow }: { view: LiveView; serverNow: number }) {
  const [card, inView] = useInView<HTMLElement>(true);
  // serverNow too: a line folded into the query moves its dataUpdatedAt.
  return <CardBody view={useHeld(view, !inView)} serverNow={useHeld(serverNow, !inView)} inView={inView} card={card} />;
}

// Memoised: while held, a new line re-renders nothing below the panel.
const CardBody = memo(function CardBody({
  view,
  serverNow,
  inView,
  card,
}: {
  view: LiveView;
  serverNow: number;
  inView: boolean;
  card: RefObject<HTMLElement | null>;
}) {
  const [follow, setFollow] = useState(true);
  const transcript = useTranscript(view.lines);
  const [mode, setMode] = useTranscriptMode();
  const conversation = transcript.format !== "plain" && mode === "conversation";
  const pre = useRef<HTMLPreElement>(null);
  const list = useRef<HTMLOListElement>(null);
  // The tail that follows the output: the conversation, or the raw lines.
  const tail = conversation ? list : pre;
  // Whether the browser skips the card (content-visibility, scrolled away), from its own event:
  // asking (checkVisibility) made it compute the page's style and layout on every new line.
  const skipped = useRef(false);
  useEffect(() => {
    const pre = tail.current;
    // Skipped off-screen, reading its height would lay it out again: it catches up when shown (below).
    if (!follow || !pre || skipped.current) return;
    pre.scrollTop = pre.scrollHeight;
  }, [follow, view.lastEventId, tail]);
  useEffect(() => {
    const el = card.current;
    if (!el) return;
    const changed = (e: Event) => {
      skipped.current = !!(e as Event & { skipped?: boolean }).skipped;
      if (!skipped.current && follow && tail.current) tail.current.scrollTop = tail.current.scrollHeight;
    };
    el.addEventListener("contentvisibilityautostatechange", changed);
    return () => el.removeEventListener("contentvisibilityautostatechange", changed);
  }, [follow, card, tail]);

  return (
    <section
      ref={card}
      aria-label={`Iteration ${view.iteration} in flight`}
      data-testid="live-iteration"
      // Contained: a new output line relays out and repaints the card, not the page around it;
      // scrolled out of view, the browser skips its layout and paint altogether (the DOM still updates).
      className="mb-3 rounded-xl border border-sky-300 bg-sky-50/60 p-3 text-sm [contain:layout_paint] [content-visibility:auto] [contain-intrinsic-size:auto_12rem] dark:border-sky-800 dark:bg-sky-950/40"
    >
      <div className="flex flex-wrap items-center gap-2">
        <strong>Iteration {view.iteration}</strong>
        <Badge tone="info" dot>
          {PHASES[view.phase]}
        </Badge>
        <Badge tone={HEALTH_TONE[view.health]}>{view.health}</Badge>
        <LiveClock view={view} serverNow={serverNow} paused={!inView} />
      </div>
      {view.interventions.length > 0 && (
        <ul className="mt-2 space-y-1" data-testid="live-interventions">
          {view.interventions.map((i) => (
            <li key={`${i.at}-${i.level}`} className="text-amber-900 dark:text-amber-200">
              <strong className="capitalize">{i.level}</strong>: {i.message}
            </li>
          ))}
        </ul>
      )}
      {view.tools.length > 0 && (
        <div className="mt-2 flex flex-wrap items-center gap-1" data-testid="live-tools">
          <span className="text-xs text-slate-600 dark:text-slate-300">Tool calls:</span>
          {view.tools.slice(-12).map((t, i) => (
            <Badge key={`${t.at}-${i}`}>{t.name}</Badge>
          ))}
        </div>
      )}
      <div className="mt-2 flex items-center justify-between gap-2 text-xs text-slate-600 dark:text-slate-300">
        <span>
          Output: {view.totalLines} lines
          {view.skippedLines > 0 ? ` (showing the last ${view.lines.length})` : ""}
        </span>
        <span className="flex items-center gap-3">
          {transcript.format !== "plain" && (
            <TranscriptModeSwitch mode={mode} onChange={setMode} label="Show the live output as" />
          )}
          <label className="flex items-center gap-1">
            <input type="checkbox" checked={follow} onChange={(e) => setFollow(e.target.checked)} />
            Follow
          </label>
        </span>
      </div>
      {conversation ? (
        <TranscriptEntries
          ref={list}
          transcript={transcript}
          label="The agent's turn, newest last"
          testId="live-transcript"
          data-output-at={view.outputAt ?? undefined}
          data-lines={view.totalLines}
          note={view.skippedLines > 0 ? "Earlier output scrolled out of the live view." : undefined}
          className="mt-1 max-h-96 bg-white/70 dark:bg-slate-950/60"
        />
      ) : (
        <pre
          ref={pre}
          data-testid="live-output"
          data-output-at={view.outputAt ?? undefined}
          data-lines={view.totalLines}
          tabIndex={0}
          aria-label="Agent output, newest last"
          className="mt-1 max-h-64 overflow-auto whitespace-pre-wrap break-all rounded-lg bg-slate-900 p-2 font-mono text-xs text-slate-100"
        >
          {view.lines.length > 0 ? view.lines.join("\n") : "(no output yet)"}
        </pre>
      )}
    </section>
  );
});

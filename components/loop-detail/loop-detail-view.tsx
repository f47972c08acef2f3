"use client";
// The loop page: header, control bar, charts, and tabs for iterations,
// approvals and the audit log. It listens to this loop's events only and
// refreshes fast (the loop itself within ~100 ms of an event).
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { memo, useCallback, useEffect, useMemo, useState } from "react";
import { handoffTriggers } from "@/lib/charts/score-chart";
import { useTRPC } from "@/lib/trpc/client";
import { LiveIndicator } from "@/components/live/live-indicator";
import { LoopStatusAnnouncer } from "@/components/loops/status-announcer";
import { useLiveEvents, type LiveEvent, type LiveSince } from "@/components/live/use-live-events";
import { errorMessage } from "@/components/shared/trpc-errors";
import { ButtonLink } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { Tabs } from "@/components/ui/tabs";
import { AlertMutesPanel } from "./alert-mutes-panel";
import { LandingPanel } from "@/components/landing/landing-panel";
import { ApprovalsPanel } from "./approvals-panel";
import { LiveAuditLog, useLiveAuditBuffer } from "./live-audit";
import { LoopCharts } from "./loop-charts";
import { ControlBar } from "./control-bar";
import { ControlDialog, DIALOGS } from "./control-dialog";
import { availabilityOf, type ControlName } from "./control-names";
import { IterationTimeline } from "./iterations/iteration-timeline";
import { LiveIterationPanel } from "@/components/live-iteration/live-iteration-panel";
import { LiveIterationCache, notLiveRow } from "@/components/live-iteration/live-cache";
import { isLoopStatus } from "@/components/loops/format";
import { LIVE_EVENT_TYPE } from "@/components/live-iteration/live-fold";
import { foldAlarmRaised, foldControlEvent, foldIterationFinished } from "@/components/live/loop-detail-fold";
import { LoopDetailSkeleton } from "./loop-detail-skeleton";
import { LoopHeader } from "./loop-header";
import { QuestionPanel } from "./question-panel";
import { PermissionPromptsPanel } from "./permission-prompts-panel";
import { ForkDialog, LimitsDialog, preloadDialogs, preloadDialogsWhenSettled, ShareDialog } from "./lazy-dialogs";
import { CONFIRM_ON_CLICK, ignoreKey, SHORTCUTS } from "./shortcuts";
import { ShortcutsHelp } from "./shortcuts-help";
import { ConfirmShortcutDialog } from "./confirm-shortcut-dialog";
import { useShortcutsEnabled } from "@/components/shared/shortcut-setting";
import { useControls } from "./use-controls";

/** A request stored or answered: every tab shows it pending (or not) from the event (loop-detail-fold.ts). */
const CONTROL_EVENTS = new Set(["control_requested", "control_applied", "control_rejected"]);
const ITERATION_EVENTS = new Set(["iteration_finished", "halted", "checkpoint_created"]);
/**
 * Steps inside an iteration that change nothing the loop's own query shows
 * (its iteration_finished follows with the outcome). Refetching the loop on
 * each of them re-rendered the page several times an iteration.
 */
const NOT_IN_LOOP = new Set(["agent_progress", "phase_started", "scored", "validated", "verified", "reflected"]);
const changesLoop = (e: LiveEvent) => notLiveRow(e) && !NOT_IN_LOOP.has(e.type);
/**
 * An iteration's routine events: its end is folded into the cache from the
 * event (see loop-detail-fold.ts), so what else they change (the forecast, a
 * downsampled series, the markers) is refetched at the charts' pace, not at
 * once. An end the fold could not apply refetches at once.
 */
const ROUTINE = new Set(["iteration_started", "checkpoint_created"]);
// Only while the page already shows the loop running: the first iteration of a queued loop is how it learns it runs.
const isRoutine = (e: LiveEvent, status: string | undefined, folded: WeakSet<LiveEvent>) =>
  folded.has(e) || (status === "running" && ROUTINE.has(e.type));
const SLOW_REFRESH_MS = 10_000;
/**
 * What a running loop streams every second or so and nobody needs sooner
 * than the next half second: output rows, its steps, an iteration's end and
 * the next one's start. They are handled on the page's beat (pulse.ts),
 * together with the clock texts, so a running page draws a frame or two a
 * second instead of one per event. Status changes, alarms, controls and
 * halts still show at once (and hand over the routine ones before them).
 */
const BEAT_EVENTS = new Set([LIVE_EVENT_TYPE, "iteration_finished", ...ROUTINE, ...NOT_IN_LOOP]);
// Memoised: a refetch of the loop that did not touch its iterations redraws none of them.
const Timeline = memo(IterationTimeline);
const LivePanel = memo(LiveIterationPanel);
// Its props (availability, isPending, trigger) keep their identity while they mean the same.
const Controls = memo(ControlBar);
type DialogName = ControlName | "help" | "confirm";

/** The same map object while its entries are the same, so the timeline is not redrawn for an equal one. */
function useSameMap<K, V>(map: Map<K, V>): Map<K, V> {
  const key = JSON.stringify([...map]);
  return useMemo(() => new Map(JSON.parse(key) as [K, V][]), [key]);
}

/** `since`: the newest event the server's prefetched data reflects, and when (the stream resumes after it). */
export function LoopDetailView({ id, since = null }: { id: string; since?: LiveSince | null }) {
  const trpc = useTRPC();
  const detail = useQuery(trpc.loops.byId.queryOptions({ id }));
  const me = useQuery(trpc.auth.me.queryOptions());
  const canOperate = me.data?.permissions.operateLoops ?? false;
  const liveAudit = useLiveAuditBuffer();
  const [dialog, setDialog] = useState<DialogName | null>(null);
  const [tab, setTab] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<(typeof SHORTCUTS)[number] | null>(null);
  const shortcutsOn = useShortcutsEnabled();

  const queryClient = useQueryClient();
  const [liveRows] = useState(() => new LiveIterationCache(queryClient));
  // Iteration ends the cache took from the event itself (the refresh rules below ask).
  const [folded] = useState(() => new WeakSet<LiveEvent>());
  useEffect(() => () => liveRows.dispose(), [liveRows]);
  useEffect(() => preloadDialogsWhenSettled(), []);
  const onEvent = useCallback(
    (e: LiveEvent) => {
      if (liveRows.apply(trpc.loops.live.queryKey({ id }), e)) return;
      if (e.type === "alarm_raised") {
        queryClient.setQueryData(trpc.loops.byId.queryKey({ id }), (old) => foldAlarmRaised(old, e));
      }
      if (CONTROL_EVENTS.has(e.type)) {
        queryClient.setQueryData(trpc.loops.byId.queryKey({ id }), (old) => foldControlEvent(old, e));
      }
      if (e.type === "iteration_finished") {
        queryClient.setQueryData(trpc.loops.byId.queryKey({ id }), (old) => {
          const fold = foldIterationFinished(old, e);
          if (fold.kind !== "refetch") folded.add(e);
          return fold.kind === "patched" ? fold.detail : old;
        });
      }
      liveAudit.push(e as Parameters<typeof liveAudit.push>[0]);
      // A state change shows in the same frame; the refetch that follows fills in the rest.
      const { to, iteration } = (e.payload as { to?: unknown; iteration?: unknown } | null) ?? {};
      if (e.type === "status_changed" && isLoopStatus(to)) {
        // The event's iteration too, so "paused after iteration 7" is not read with the stale count.
        queryClient.setQueryData(trpc.loops.byId.queryKey({ id }), (old) =>
          old
            ? {
                ...old,
                loop: {
                  ...old.loop,
                  status: to,
                  displayStatus: to,
                  iteration:
                    typeof iteration === "number" ? Math.max(old.loop.iteration, iteration) : old.loop.iteration,
                },
              }
            : old,
        );
      }
    },
    [queryClient, trpc, id, liveAudit, liveRows, folded],
  );
  const cachedStatus = () => queryClient.getQueryData(trpc.loops.byId.queryKey({ id }))?.loop.status;
  const stream = useLiveEvents({
    loopId: id,
    since,
    onEvent,
    defer: (e) => BEAT_EVENTS.has(e.type) && cachedStatus() === "running",
    refresh: [
      {
        filters: [trpc.loops.byId.queryFilter({ id })],
        delayMs: 100,
        when: (e) => changesLoop(e) && !isRoutine(e, cachedStatus(), folded),
      },
      {
        filters: [trpc.loops.byId.queryFilter({ id })],
        delayMs: SLOW_REFRESH_MS,
        when: (e) => isRoutine(e, cachedStatus(), folded),
      },
      { filters: [trpc.loops.iterations.pathFilter()], delayMs: 150, when: (e) => ITERATION_EVENTS.has(e.type) },
      { filters: [trpc.events.list.pathFilter()], delayMs: 1500, when: notLiveRow },
      {
        filters: [trpc.permissions.ofLoop.queryFilter({ loopId: id })],
        delayMs: 100,
        when: (e) => e.type.startsWith("permission_"),
      },
      // Only on (re)connect: rows printed while the stream was down are re-read.
      { filters: [trpc.loops.live.queryFilter({ id })], delayMs: 100, when: () => false },
    ],
  });

  const data = detail.data;
  const series = data?.series;
  const markers = data?.markers;
  const handoffs = useSameMap(useMemo(() => handoffTriggers(series ?? [], markers ?? []), [series, markers]));
  // The kinds of the loop's pending requests, whichever tab sent them.
  const pendingKey = data?.pendingControls.map((c) => c.kind).join("\n") ?? "";
  const pendingKinds = useMemo(() => (pendingKey ? pendingKey.split("\n") : []), [pendingKey]);
  const controls = useControls(id, pendingKinds);
  const onHelp = useCallback(() => setDialog("help"), []);
  // The server decides what is allowed (state and role); until it answered, nothing is.
  // On `availability` alone (kept identical across refetches), so the controls redraw only when it changes.
  const allowed = data?.availability;
  const availability = useCallback(
    (control: ControlName) =>
      allowed ? availabilityOf({ availability: allowed }, control) : { allowed: false, reason: "the loop is loading" },
    [allowed],
  );

  const trigger = useCallback(
    (control: ControlName) => {
      if (!availability(control).allowed) return;
      if (DIALOGS[control] || control === "updateLimits" || control === "fork" || control === "share")
        setDialog(control);
      else void controls.send(control);
    },
    [availability, controls],
  );
  // A button press: what cannot be taken back asks first, as its shortcut does.
  const onControl = useCallback(
    (control: ControlName) => {
      const shortcut = SHORTCUTS.find((s) => s.control === control);
      if (!CONFIRM_ON_CLICK[control] || !shortcut || !availability(control).allowed) return trigger(control);
      setConfirming(shortcut);
      setDialog("confirm");
    },
    [availability, trigger],
  );

  useEffect(() => {
    if (!shortcutsOn) return;
    function onKey(e: KeyboardEvent) {
      if (dialog || ignoreKey(e)) return;
      if (e.key === "?") {
        e.preventDefault();
        return setDialog("help");
      }
      const shortcut = SHORTCUTS.find((s) => s.key === e.key.toLowerCase());
      if (!shortcut || !availability(shortcut.control).allowed) return;
      e.preventDefault();
      if (shortcut.confirm) {
        setConfirming(shortcut);
        setDialog("confirm");
      } else trigger(shortcut.control);
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [dialog, trigger, availability, shortcutsOn]);

  if (detail.isPending) return <LoopDetailSkeleton />;
  if (detail.isError) {
    if (detail.error.data?.code === "NOT_FOUND") {
      return (
        <EmptyState title="This loop does not exist" action={<ButtonLink href="/">Back to loops</ButtonLink>}>
          It may have been deleted, or the link is wrong.
        </EmptyState>
      );
    }
    return (
      <ErrorState
        title="Could not load this loop"
        message={errorMessage(detail.error)}
        onRetry={() => detail.refetch()}
      />
    );
  }
  const d = detail.data;
  const gatePending = d.loop.status === "awaiting_approval";
  const activeTab = tab ?? (gatePending ? "approvals" : "iterations");
  const stopping =
    (controls.isPending("interrupt") || controls.isPending("kill")) &&
    ["running", "queued", "waiting"].includes(d.loop.status);

  return (
    <div className="space-y-5">
      <div className="flex items-center justify-between gap-2 text-sm">
        <ButtonLink href="/" variant="ghost" size="sm">
          ← Loops
        </ButtonLink>
        <span className="flex items-center gap-3">
          {/* The redacted report a share link would give, as a file, for whoever is signed in. */}
          <span className="text-slate-600 dark:text-slate-400" data-testid="loop-export">
            Export:{" "}
            <a className="underline" href={`/loops/${id}/export/json`} download>
              JSON
            </a>{" "}
            ·{" "}
            <a className="underline" href={`/loops/${id}/export/markdown`} download>
              Markdown
            </a>
          </span>
          <LiveIndicator status={stream.status} />
        </span>
      </div>
      <LoopStatusAnnouncer loop={d.loop} />
      <LoopHeader detail={d} displayStatus={stopping ? "interrupting" : d.loop.displayStatus} />
      {gatePending && (
        <div
          role="alert"
          className="flex flex-wrap items-center justify-between gap-2 rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
        >
          <span>
            <strong>Awaiting approval</strong>
            {d.pendingGate ? `: ${d.pendingGate.reason}` : ""}
          </span>
          <button type="button" className="font-medium underline" onClick={() => setTab("approvals")}>
            Review
          </button>
        </div>
      )}
      <QuestionPanel detail={d} />
      <PermissionPromptsPanel loopId={id} canOperate={canOperate} />
      <div onPointerEnter={preloadDialogs} onFocus={preloadDialogs}>
        <Controls
          availability={availability}
          isPending={controls.isPending}
          onControl={onControl}
          onHelp={onHelp}
          loopId={id}
          showStart={d.loop.status === "draft"}
          waitingForLimit={d.loop.status === "waiting_for_limit"}
        />
      </div>
      <LoopCharts
        loopId={id}
        series={d.series}
        bucketSize={d.seriesBucketSize}
        iterations={d.loop.iteration}
        markers={d.markers}
        threshold={d.config?.stop.scoreThreshold ?? null}
        plateauAfter={d.config?.stop.noProgressIterations}
        budget={d.loop.budgetUsd}
        forecast={d.loop.isTerminal ? null : d.forecast}
      />
      <LandingPanel loopId={id} canOperate={canOperate} />
      <Tabs
        label="Loop sections"
        value={activeTab}
        onChange={setTab}
        items={[
          {
            id: "iterations",
            // The store's count, as the header says it (the series has a point per attempt, or per bucket).
            label: `Iterations (${d.loop.iteration})`,
            content: (
              <>
                <LivePanel loopId={id} inFlight={d.loop.status === "running"} />
                <Timeline
                  loopId={id}
                  handoffs={handoffs}
                  live={d.loop.status === "running"}
                  latest={d.loop.iteration}
                />
              </>
            ),
          },
          {
            id: "approvals",
            label: gatePending ? "Approvals (1 pending)" : "Approvals",
            content: <ApprovalsPanel detail={d} onControl={trigger} canDecide={d.availability.approve.allowed} />,
          },
          { id: "audit", label: "Audit log", content: <LiveAuditLog loopId={id} buffer={liveAudit} /> },
          { id: "alerts", label: "Alerts", content: <AlertMutesPanel loopId={id} canChange={canOperate} /> },
        ]}
      />
      {dialog === "help" && <ShortcutsHelp onClose={() => setDialog(null)} />}
      {dialog === "confirm" && confirming && (
        <ConfirmShortcutDialog
          label={confirming.label}
          description={CONFIRM_ON_CLICK[confirming.control]}
          onConfirm={() => trigger(confirming.control)}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog && DIALOGS[dialog as ControlName] && (
        <ControlDialog
          control={dialog as ControlName}
          onClose={() => setDialog(null)}
          onConfirm={(input) => controls.send(dialog as ControlName, input)}
          pending={controls.isPending(dialog as ControlName)}
        />
      )}
      {dialog === "updateLimits" && (
        <LimitsDialog
          config={d.config as never}
          onClose={() => setDialog(null)}
          onConfirm={(input) => controls.send("updateLimits", input)}
          pending={controls.isPending("updateLimits")}
        />
      )}
      {dialog === "fork" && (
        <ForkDialog
          lastIteration={d.loop.iteration}
          onClose={() => setDialog(null)}
          onConfirm={(input) => controls.send("fork", input)}
          pending={controls.isPending("fork")}
        />
      )}
      {dialog === "share" && <ShareDialog loopId={id} onClose={() => setDialog(null)} />}
    </div>
  );
}

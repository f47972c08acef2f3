// The loop page's cache of `loops.byId`, moved forward by an iteration_finished
// event instead of a refetch: the event carries the loop's counters after the
// iteration (absolute values) and the iteration's chart point. The fold only
// patches when the event is the next iteration the cache has not seen; a
// replayed event changes nothing, and a gap (an event missed, the cache older
// than the stream) asks for a refetch instead of guessing.
import type { RouterOutputs } from "@/components/shared/api-types";
import { isHealth, isLoopStatus, type HealthName } from "@/components/shared/vocabulary";

export type LoopDetail = RouterOutputs["loops"]["byId"];
type Point = LoopDetail["series"][number];

export type LoopFold =
  /** The cache, moved forward by the event. */
  | { kind: "patched"; detail: LoopDetail }
  /** The cache already shows what the event says (a replay, or a refetch that overtook it). */
  | { kind: "seen" }
  /** The event cannot be applied safely: refetch. */
  | { kind: "refetch" };

interface Summary {
  loop: {
    iteration: number;
    costUsd: number;
    tokensIn: number;
    tokensOut: number;
    tokensCache: number;
    bestScore: number | null;
    lastScore: number | null;
    health: HealthName;
    lastActivityAt: number;
  };
  point: Omit<Point, "finishedAt" | "span"> & { finishedAt: number };
}

const isNum = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const isNumOrNull = (v: unknown) => v === null || isNum(v);
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

/** The summary on a stored iteration_finished event, or null when it lacks one or it is malformed. */
export function iterationSummaryOf(payload: unknown): Summary | null {
  const summary = isObj(payload) ? payload.summary : undefined;
  if (!isObj(summary) || !isObj(summary.loop) || !isObj(summary.point)) return null;
  const { loop, point } = summary;
  const counters = ["iteration", "costUsd", "tokensIn", "tokensOut", "tokensCache", "lastActivityAt"] as const;
  if (!counters.every((k) => isNum(loop[k])) || !isNumOrNull(loop.bestScore) || !isNumOrNull(loop.lastScore))
    return null;
  if (!isHealth(loop.health)) return null;
  if (!isNum(point.number) || !isNum(point.attempt) || !isNum(point.finishedAt) || !isObj(point.scores)) return null;
  if (typeof point.loopId !== "string" || typeof point.status !== "string") return null;
  return summary as unknown as Summary;
}

export function foldIterationFinished(
  old: LoopDetail | undefined,
  event: { type: string; payload: unknown },
): LoopFold {
  if (event.type !== "iteration_finished") return { kind: "refetch" };
  const summary = iterationSummaryOf(event.payload);
  // A loop the page does not show running (queued, waiting) may have changed more than the event says.
  if (!old || !summary || old.loop.status !== "running") return { kind: "refetch" };
  const { loop, point } = summary;
  const known = old.series.some((p) => p.number === point.number && p.attempt === point.attempt);
  const full = old.seriesBucketSize === 1;
  if (known || (loop.iteration <= old.loop.iteration && !full)) return { kind: "seen" };
  // Only the very next iteration: anything else means the cache missed something.
  if (loop.iteration !== old.loop.iteration + 1) return { kind: "refetch" };
  const last = old.series.at(-1);
  if (full && last && last.number >= point.number) return { kind: "refetch" };
  const ran = loop.iteration - old.loop.iteration;
  return {
    kind: "patched",
    detail: {
      ...old,
      loop: {
        ...old.loop,
        iteration: loop.iteration,
        costUsd: loop.costUsd,
        tokensIn: loop.tokensIn,
        tokensOut: loop.tokensOut,
        tokensCache: loop.tokensCache,
        bestScore: loop.bestScore,
        lastScore: loop.lastScore,
        health: loop.health,
        lastActivityAt: new Date(loop.lastActivityAt),
      },
      // A downsampled series gains its points from the throttled refetch (its buckets are the server's).
      series: full ? [...old.series, { ...point, finishedAt: new Date(point.finishedAt) }] : old.series,
      forecast: forecastAfter(old.forecast, loop.costUsd, ran),
    },
  };
}

/**
 * The forecast moved on by `ran` iterations at its own pace, from the spend
 * the event reports: the header's cost to finish and the cost chart's end
 * follow the same store as the spend they are read beside, not the last
 * refetch's (which said "≈ $0 at the end" after $0.04 was spent).
 */
export function forecastAfter(forecast: LoopDetail["forecast"], spent: number, ran: number): LoopDetail["forecast"] {
  if (!forecast) return forecast;
  const remainingIterations = Math.max(0, forecast.remainingIterations - ran);
  const projectedCostToFinish = forecast.costPerIteration * remainingIterations;
  return {
    ...forecast,
    remainingIterations,
    projectedCostToFinish,
    projectedTotalCost: spent + projectedCostToFinish,
    iterationsUntilExhausted:
      forecast.iterationsUntilExhausted === null ? null : Math.max(0, forecast.iterationsUntilExhausted - ran),
  };
}

const ALARM_KINDS = new Set(["runaway", "silent", "spend_rate", "attention"]);

/**
 * An alarm_raised event shown at once: a runaway with `action: "pause"` is
 * paused at the loop's next safe point, and the page's throttled refetch
 * would never see the alarm in between. The refetch that follows corrects it.
 */
export function foldAlarmRaised(
  old: LoopDetail | undefined,
  event: { type: string; payload: unknown },
): LoopDetail | undefined {
  const p = event.payload;
  if (!old || event.type !== "alarm_raised" || !isObj(p)) return old;
  const { alarm, title, detail, action } = p;
  if (typeof alarm !== "string" || !ALARM_KINDS.has(alarm) || typeof title !== "string") return old;
  if (typeof detail !== "string" || (action !== "alert" && action !== "pause")) return old;
  const raised = { kind: alarm as LoopDetail["alarms"][number]["kind"], title, detail, action } as const;
  return { ...old, alarms: [...old.alarms.filter((a) => a.kind !== raised.kind), raised] };
}

type PendingControl = LoopDetail["pendingControls"][number];
const CONTROL_OUTCOMES = new Set(["control_applied", "control_rejected"]);

/**
 * A control request as every tab sees it, from its event alone: a stored
 * request (control_requested, outcome "stored") joins the pending list, with
 * the status the server says it makes ("interrupting" while a kill waits for
 * the agent); its answer (control_applied / control_rejected) takes it off.
 * The tab that sent it learns this from its own mutation; any other tab only
 * from the stream, and a refetch alone comes a round trip later. The refetch
 * that follows still corrects anything else the request changed.
 */
export function foldControlEvent(
  old: LoopDetail | undefined,
  event: { type: string; actor: string; reason: string | null; createdAt: Date | string; payload: unknown },
): LoopDetail | undefined {
  const p = event.payload;
  if (!old || !isObj(p) || typeof p.requestId !== "string") return old;
  const requestId = p.requestId;
  if (CONTROL_OUTCOMES.has(event.type)) {
    if (!old.pendingControls.some((c) => c.id === requestId)) return old;
    return { ...old, pendingControls: old.pendingControls.filter((c) => c.id !== requestId) };
  }
  if (event.type !== "control_requested" || p.outcome !== "stored" || typeof p.command !== "string") return old;
  if (old.pendingControls.some((c) => c.id === requestId)) return old;
  const pending: PendingControl = {
    id: requestId,
    kind: p.command,
    actor: event.actor,
    reason: event.reason,
    createdAt: new Date(event.createdAt),
  };
  const shown = isLoopStatus(p.displayStatus) ? p.displayStatus : old.loop.displayStatus;
  return {
    ...old,
    loop: { ...old.loop, displayStatus: shown },
    pendingControls: [...old.pendingControls, pending],
  };
}

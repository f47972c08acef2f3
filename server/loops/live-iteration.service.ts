// The iteration in flight as the detail page shows it: the live rows the
// runtime wrote (server/jobs/live-recorder.ts) folded into one view. The
// browser keeps folding the rows the event stream brings after this read.
import type { Database } from "../db/client";
import { liveEventsOf, latestLiveEvents } from "../db/live-output.repo";
import { loopById } from "../db/loops.repo";
import type { HealthState, InterventionLevel, LivePhase } from "../engine";

/** Lines and tool calls the view keeps (the newest). */
export const LIVE_TAIL_LINES = 200;
const LIVE_TOOLS = 30;

/** One live row's payload, as the runtime writes it (server/jobs/live-recorder.ts). */
export interface LivePayload {
  iteration: number;
  agentId: string;
  startedAt: number;
  phase: LivePhase;
  heartbeatAt: number | null;
  outputAt: number | null;
  health: HealthState;
  interventions: { level: InterventionLevel; message: string; at: number }[];
  /** In a row: new since the previous batch; in the view: the newest kept. */
  tools: { name: string; at: number }[];
  lines: string[];
  /** Lines printed but not kept (batch caps and the rolling cap). */
  skippedLines: number;
  totalLines: number;
}

export interface LiveIterationView extends LivePayload {
  /** The newest live row folded in: a browser folding streamed rows skips those up to it. */
  lastEventId: number;
}

type Row = { id: number; payload: unknown };

/** Folds live rows, oldest first, into the view of their newest iteration. */
export function foldLiveRows(rows: readonly Row[]): LiveIterationView | null {
  const payloads = rows
    .map((r) => ({ ...(r.payload as Partial<LiveIterationView> | null), lastEventId: r.id }))
    .filter((p): p is LiveIterationView => typeof p.iteration === "number");
  const last = payloads.at(-1);
  if (!last) return null;
  const mine = payloads.filter((p) => p.iteration === last.iteration && p.agentId === last.agentId);
  const lines = mine.flatMap((p) => p.lines ?? []);
  const kept = lines.slice(-LIVE_TAIL_LINES);
  return {
    ...last,
    tools: mine.flatMap((p) => p.tools ?? []).slice(-LIVE_TOOLS),
    lines: kept,
    totalLines: last.totalLines,
    // Everything printed that is not in `lines`: dropped by a cap or by rows already pruned.
    skippedLines: Math.max(0, last.totalLines - kept.length),
  };
}

export async function getLiveIteration(db: Database, loopId: string): Promise<LiveIterationView | null> {
  const [loop, rows] = await Promise.all([loopById(db.prisma, loopId), liveEventsOf(db.prisma, loopId)]);
  // Rows left by a runtime that crashed before clearing them describe nothing in flight.
  if (!loop || loop.inflightIteration === null) return null;
  const view = foldLiveRows(rows);
  return view && view.iteration === loop.inflightIteration ? view : null;
}

/** Per loop: when the agent in flight last printed and beat, and its phase (the list's "last output 3s ago"). */
export async function liveSummaries(db: Database, loopIds: string[]) {
  const rows = await latestLiveEvents(db.prisma, loopIds);
  return new Map(
    rows.map((r) => {
      const p = (r.payload ?? {}) as Partial<LiveIterationView>;
      return [
        r.loopId!,
        {
          iteration: p.iteration ?? 0,
          phase: String(p.phase ?? "agent"),
          outputAt: p.outputAt ?? null,
          heartbeatAt: p.heartbeatAt ?? null,
        },
      ] as const;
    }),
  );
}

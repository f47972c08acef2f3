// The per-iteration series the charts are built from. Structural on purpose:
// lib/ knows nothing of the server but the AppRouter type (what tRPC hands the browser).
import type { IterationWindow } from "./chart-window";
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/api/root";

export interface IterationPoint {
  number: number;
  attempt: number;
  status: string;
  scores: Record<string, number>;
  meanScore: number | null;
  costUsd: number;
  tokensIn: number;
  tokensOut: number;
  tokensCache: number;
  durationMs: number;
  health: string | null;
  handoffTrigger: string | null;
  claimedDone: boolean;
  claimMismatch: boolean;
  evidenceComplete: boolean;
  finishedAt: Date | string;
  /**
   * Set when the server charts a long loop a bucket at a time: this point stands
   * for iterations `from`..`to`. Its spend and tokens are the bucket's sums, so
   * totals stay exact; its scores are those of iteration `to`.
   */
  span?: ChartSpan;
}

/** A bucket of iterations one chart point stands for: the server's type (server/loops/chart-series.ts). */
export type ChartSpan = NonNullable<inferRouterOutputs<AppRouter>["loops"]["series"]["points"][number]["span"]>;

/** An audit event as far as the charts care: what happened, at which iteration. */
/** What every loop chart draws from: the iterations, the loop's events, and the shared x range. */
export interface ChartInput {
  series: IterationPoint[];
  events: ChartEvent[];
  xRange: IterationWindow;
}

export interface ChartEvent {
  id: number;
  type: string;
  payload: unknown;
  reason: string | null;
  actor: string;
  createdAt: Date | string;
}

/**
 * A re-run of an interrupted iteration keeps its number: only the last
 * attempt of each number counts on the charts (it is the one that scored).
 */
export function lastAttempts<T extends Pick<IterationPoint, "number" | "attempt">>(points: readonly T[]): T[] {
  const byNumber = new Map<number, T>();
  for (const p of points) {
    const seen = byNumber.get(p.number);
    if (!seen || p.attempt >= seen.attempt) byNumber.set(p.number, p);
  }
  return [...byNumber.values()].sort((a, b) => a.number - b.number);
}

/** The iteration an event belongs to: engine events carry it in their payload. */
export function eventIteration(event: Pick<ChartEvent, "payload">): number | null {
  const p = event.payload as { iteration?: unknown } | null;
  return p && typeof p.iteration === "number" ? p.iteration : null;
}

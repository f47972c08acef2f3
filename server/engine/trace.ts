/**
 * An iteration's trace: when each part of it ran and for how long (the
 * agent, each scorer, the verifier, the reflector), for the per-iteration
 * waterfall. Times come from the engine's clock (`deps.now`), so a fake clock
 * gives an exact, testable trace.
 */
export type TraceSpanKind = "agent" | "scorer" | "verifier" | "reflector";

export interface TraceSpan {
  kind: TraceSpanKind;
  /** "agent", the scorer's name, "verifier" or "reflector". */
  name: string;
  /** Milliseconds since the epoch. */
  startedAt: number;
  durationMs: number;
}

/** Wraps `work` in a span read from `now`; the span is recorded whether `work` resolves or throws. */
export async function timed<T>(
  spans: TraceSpan[],
  now: () => number,
  kind: TraceSpanKind,
  name: string,
  work: () => Promise<T>,
): Promise<T> {
  const startedAt = now();
  try {
    return await work();
  } finally {
    spans.push({ kind, name, startedAt, durationMs: Math.max(0, now() - startedAt) });
  }
}

export const span = (kind: TraceSpanKind, name: string, startedAt: number, endedAt: number): TraceSpan => ({
  kind,
  name,
  startedAt,
  durationMs: Math.max(0, endedAt - startedAt),
});

/** Spans in start order (scorers run in parallel and finish in any order). */
export function sortedTrace(spans: readonly TraceSpan[]): TraceSpan[] {
  const order: Record<TraceSpanKind, number> = { agent: 0, scorer: 1, verifier: 2, reflector: 3 };
  return [...spans].sort((a, b) => a.startedAt - b.startedAt || order[a.kind] - order[b.kind]);
}

// The waterfall of one iteration's trace (agent, each scorer, verifier,
// reflector), read from the diagnostics JSON the runtime stores it in.
// Pure: offsets and widths as shares of the iteration's whole span.

export interface TraceSpanRow {
  kind: "agent" | "scorer" | "verifier" | "reflector";
  name: string;
  /** Milliseconds after the iteration started. */
  offsetMs: number;
  durationMs: number;
  /** Left edge and width as percentages of the drawn span. */
  left: number;
  width: number;
}

const KINDS = new Set(["agent", "scorer", "verifier", "reflector"]);

/** The trace stored in an iteration's diagnostics, or [] (iterations from before tracing, or malformed data). */
export function traceOf(
  diagnostics: unknown,
): { kind: TraceSpanRow["kind"]; name: string; startedAt: number; durationMs: number }[] {
  const trace = (diagnostics as { trace?: unknown } | null)?.trace;
  if (!Array.isArray(trace)) return [];
  return trace.flatMap((s: unknown) => {
    const { kind, name, startedAt, durationMs } = (s ?? {}) as Record<string, unknown>;
    return typeof kind === "string" &&
      KINDS.has(kind) &&
      typeof name === "string" &&
      typeof startedAt === "number" &&
      typeof durationMs === "number" &&
      durationMs >= 0
      ? [{ kind: kind as TraceSpanRow["kind"], name, startedAt, durationMs }]
      : [];
  });
}

export function traceRows(
  diagnostics: unknown,
  iteration: { startedAt: Date | string | number; durationMs: number },
): { rows: TraceSpanRow[]; totalMs: number } {
  const spans = traceOf(diagnostics);
  if (spans.length === 0) return { rows: [], totalMs: 0 };
  const start = Math.min(new Date(iteration.startedAt).getTime(), ...spans.map((s) => s.startedAt));
  const end = Math.max(start + iteration.durationMs, ...spans.map((s) => s.startedAt + s.durationMs));
  const total = Math.max(1, end - start);
  const rows = spans.map((s) => {
    const offsetMs = s.startedAt - start;
    return {
      kind: s.kind,
      name: s.name,
      offsetMs,
      durationMs: s.durationMs,
      left: (offsetMs / total) * 100,
      // A span too short to see still gets a sliver.
      width: Math.max(0.5, (s.durationMs / total) * 100),
    };
  });
  return { rows, totalMs: end - start };
}

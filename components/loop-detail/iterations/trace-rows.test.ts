import { describe, expect, it } from "vitest";
import { traceOf, traceRows } from "./trace-rows";

const T = Date.UTC(2026, 10, 23, 12);
const span = (kind: string, name: string, at: number, ms: number) => ({
  kind,
  name,
  startedAt: T + at,
  durationMs: ms,
});

describe("traceRows", () => {
  it("places each span by its start and length within the iteration", () => {
    const { rows, totalMs } = traceRows(
      {
        exitCode: 0,
        trace: [
          span("agent", "agent", 0, 600),
          span("scorer", "tests", 600, 300),
          span("verifier", "verifier", 900, 100),
        ],
      },
      { startedAt: new Date(T), durationMs: 1000 },
    );
    expect(totalMs).toBe(1000);
    expect(rows.map((r) => [r.name, r.offsetMs, r.durationMs, r.left, r.width])).toEqual([
      ["agent", 0, 600, 0, 60],
      ["tests", 600, 300, 60, 30],
      ["verifier", 900, 100, 90, 10],
    ]);
  });

  it("gives a zero-length span a visible sliver", () => {
    const { rows } = traceRows(
      { trace: [span("agent", "agent", 0, 1000), span("scorer", "lint", 1000, 0)] },
      { startedAt: T, durationMs: 1000 },
    );
    expect(rows[1]!.width).toBe(0.5);
  });

  it("is empty for iterations recorded before tracing and for malformed data", () => {
    expect(traceRows(null, { startedAt: T, durationMs: 5 }).rows).toEqual([]);
    expect(traceRows({ exitCode: 1 }, { startedAt: T, durationMs: 5 }).rows).toEqual([]);
    expect(
      traceOf({ trace: [{ kind: "evil", name: "x", startedAt: 1, durationMs: 1 }, { kind: "agent" }, "x", null] }),
    ).toEqual([]);
    expect(traceOf({ trace: [span("agent", "agent", 0, -5)] })).toEqual([]);
  });
});

import { describe, expect, it } from "vitest";
import { foldLiveEvent, LIVE_TAIL_LINES, type LiveView } from "./live-fold";

const payload = (over: Partial<LiveView> = {}) => ({
  iteration: 3,
  agentId: "a",
  startedAt: 1000,
  phase: "agent",
  heartbeatAt: 1500,
  outputAt: 1500,
  health: "healthy",
  interventions: [],
  tools: [],
  lines: ["one"],
  skippedLines: 0,
  totalLines: 1,
  ...over,
});
const row = (id: number, over: Partial<LiveView> = {}) => ({ id, type: "iteration_live", payload: payload(over) });

describe("foldLiveEvent", () => {
  it("starts a view from the first row and appends later batches in order", () => {
    let view = foldLiveEvent(null, row(10));
    view = foldLiveEvent(view, row(11, { lines: ["two", "three"], totalLines: 3, tools: [{ name: "Edit", at: 1 }] }));
    expect(view).toMatchObject({ lines: ["one", "two", "three"], totalLines: 3, lastEventId: 11, skippedLines: 0 });
    expect(view!.tools).toEqual([{ name: "Edit", at: 1 }]);
  });

  it("ignores rows already folded (the query raced the stream) and other event types", () => {
    const view = foldLiveEvent(null, row(10, { lines: ["a"] }));
    expect(foldLiveEvent(view, row(10, { lines: ["a"] }))).toBe(view);
    expect(foldLiveEvent(view, row(9, { lines: ["old"] }))).toBe(view);
    expect(foldLiveEvent(view, { id: 12, type: "scored", payload: {} })).toBe(view);
  });

  it("a new iteration replaces the view; the tail is capped and the rest counted as skipped", () => {
    const first = foldLiveEvent(null, row(1, { lines: ["old"] }));
    const many = Array.from({ length: LIVE_TAIL_LINES + 50 }, (_, i) => `l${i}`);
    const next = foldLiveEvent(first, row(2, { iteration: 4, agentId: "b", lines: many, totalLines: many.length }));
    expect(next!.iteration).toBe(4);
    expect(next!.lines).toHaveLength(LIVE_TAIL_LINES);
    expect(next!.lines.at(-1)).toBe(`l${many.length - 1}`);
    expect(next!.skippedLines).toBe(50);
  });
});

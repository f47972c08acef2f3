import { describe, expect, it } from "vitest";
import { summaryStatuses } from "./summary-order";

describe("summaryStatuses", () => {
  it.each([
    [{}, []],
    [{ completed: 3, running: 1 }, ["running:1", "completed:3"]],
    [{ failed: 0, paused: 2 }, ["paused:2"]],
    [{ zzz_new: 1, awaiting_approval: 1, terminated: 2 }, ["awaiting_approval:1", "terminated:2", "zzz_new:1"]],
  ])("orders %j working first, finished last, unknown at the end", (byStatus, expected) => {
    expect(summaryStatuses(byStatus).map((s) => `${s.status}:${s.count}`)).toEqual(expected);
  });

  it("makes only the list's filterable statuses buttons", () => {
    const chips = summaryStatuses({ running: 1, terminated: 1 });
    expect(chips.map((c) => c.filterable)).toEqual([true, false]);
  });
});

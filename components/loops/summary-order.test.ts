import { describe, expect, it } from "vitest";
import type { LoopStatusName } from "./format";
import { summaryStatuses } from "./summary-order";

describe("summaryStatuses", () => {
  it.each<[Partial<Record<LoopStatusName, number>>, string[]]>([
    [{}, []],
    [{ completed: 3, running: 1 }, ["running:1", "completed:3"]],
    [{ failed: 0, paused: 2 }, ["paused:2"]],
    [
      { cancelled: 1, awaiting_approval: 1, interrupting: 2, draft: 1 },
      ["interrupting:2", "awaiting_approval:1", "draft:1", "cancelled:1"],
    ],
  ])("orders %j working first, finished last", (byStatus, expected) => {
    expect(summaryStatuses(byStatus).map((s) => `${s.status}:${s.count}`)).toEqual(expected);
  });

  it("makes only the list's filterable statuses buttons", () => {
    const chips = summaryStatuses({ running: 1, cancelled: 1 });
    expect(chips.map((c) => c.filterable)).toEqual([true, false]);
  });
});

import { describe, expect, it } from "vitest";
import { listChangeSummary, statusAnnouncement, type AnnouncedLoop } from "./status-announcements";

describe("statusAnnouncement", () => {
  it("says what happened, with the iteration, only on a change", () => {
    expect(statusAnnouncement("running", { status: "paused", iteration: 7 })).toBe("Loop paused after iteration 7");
    expect(statusAnnouncement("paused", { status: "running", iteration: 7 })).toBe("Loop resumed at iteration 8");
    expect(statusAnnouncement("running", { status: "needs_attention", iteration: 3 })).toBe(
      "Needs attention: the agent asked a question",
    );
    expect(statusAnnouncement("running", { status: "completed", iteration: 4, stopReason: "score 0.95" })).toBe(
      "Loop completed after iteration 4: score 0.95",
    );
    expect(statusAnnouncement("running", { status: "running", iteration: 4 })).toBeNull();
    // The first render is not a change: nothing is said on page load.
    expect(statusAnnouncement(null, { status: "paused", iteration: 4 })).toBeNull();
  });
});

describe("listChangeSummary", () => {
  it("names the loops that changed since the last summary, and only those", () => {
    const seen = new Map<string, string>();
    const items: ({ id: string } & AnnouncedLoop)[] = [
      { id: "a", status: "running", iteration: 1, name: "Alpha" },
      { id: "b", status: "running", iteration: 1, goal: "Fix the flaky test" },
      { id: "c", status: "paused", iteration: 1, name: "Gamma" },
    ];
    expect(listChangeSummary(seen, items)).toBeNull();
    expect(
      listChangeSummary(seen, [{ ...items[0]!, status: "paused" }, { ...items[1]!, status: "completed" }, items[2]!]),
    ).toBe("2 loops changed: Alpha paused; Fix the flaky test completed");
    expect(listChangeSummary(seen, [{ ...items[0]!, status: "paused" }])).toBeNull();
  });

  it("caps a flood at three names", () => {
    const seen = new Map<string, string>();
    const loops = Array.from({ length: 6 }, (_, i) => ({
      id: `l${i}`,
      status: "running" as const,
      iteration: 0,
      name: `L${i}`,
    }));
    listChangeSummary(seen, loops);
    const summary = listChangeSummary(
      seen,
      loops.map((l) => ({ ...l, status: "failed" })),
    );
    expect(summary).toBe("6 loops changed: L0 failed; L1 failed; L2 failed; and 3 more");
  });
});

// The list's summary bar, on real databases: counts by status, spend since
// the start of the day (older spend and other days left out), approvals
// waiting and loops needing attention.
import { expect, it } from "vitest";
import { describeEachProvider } from "../../test/db-providers";
import { loopListSummary } from "../loops/loop-summary.service";
import { getLoopDetail } from "../loops/loop-detail.service";

const DAY = Date.UTC(2026, 10, 23);
const NOW = DAY + 15 * 3_600_000;

describeEachProvider("loop list summary", ({ db }) => {
  it("counts by status, spend today, approvals waiting and needs attention", async () => {
    const prisma = db().prisma;
    const loop = (id: string, status: string, health = "healthy", updatedAt = new Date(NOW)) =>
      prisma.loop.create({ data: { id, goal: "g", agentKind: "demo", config: {}, status, health, updatedAt } });
    await loop("run-ok", "running");
    await loop("run-stuck", "running", "stuck");
    await loop("asks", "needs_attention");
    await loop("gate", "awaiting_approval");
    await loop("done-stuck", "completed", "stuck");
    await loop("old", "completed", "healthy", new Date(DAY - 3_600_000));
    const iteration = (loopId: string, number: number, costUsd: number, finishedAt: number) =>
      prisma.iteration.create({
        data: {
          id: `${loopId}-${number}`,
          loopId,
          number,
          status: "succeeded",
          agentId: "a",
          input: "i",
          costUsd,
          startedAt: new Date(finishedAt - 1000),
          finishedAt: new Date(finishedAt),
        },
      });
    await iteration("run-ok", 1, 0.25, DAY - 60_000); // yesterday
    await iteration("run-ok", 2, 0.5, DAY + 60_000);
    await iteration("run-stuck", 1, 0.125, NOW - 1000);
    await iteration("old", 1, 9, DAY - 7_200_000);
    await prisma.approval.create({ data: { id: "ap1", loopId: "gate", iteration: 1, gate: "before_completion" } });
    await prisma.approval.create({
      data: { id: "ap2", loopId: "gate", iteration: 0, gate: "budget", status: "approved" },
    });

    const summary = await loopListSummary(db(), NOW);
    expect(summary.byStatus).toEqual({ running: 2, needs_attention: 1, awaiting_approval: 1, completed: 2 });
    expect(summary.total).toBe(6);
    expect(summary.spendSinceUsd).toBeCloseTo(0.625, 10);
    expect(summary.since.getTime()).toBe(DAY);
    expect(summary.approvalsWaiting).toBe(1);
    // The stuck running loop and the one asking a question; a finished stuck loop needs nobody.
    expect(summary.needsAttention).toBe(2);

    // The browser's midnight (here 2 h after UTC midnight) moves "today".
    const later = await loopListSummary(db(), NOW, DAY + 2 * 3_600_000);
    expect(later.spendSinceUsd).toBeCloseTo(0.125, 10);
  });

  it("the loop detail carries the loop's alarms for its header", async () => {
    const detail = await getLoopDetail(db(), "asks", NOW);
    expect(detail.alarms.map((a) => a.kind)).toEqual(["attention"]);
    expect((await getLoopDetail(db(), "old", NOW)).alarms).toEqual([]);
  });
});

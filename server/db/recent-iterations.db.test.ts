// The list's sparkline rows in one query for a page of loops: the last
// `count` rows per loop, oldest first, and nothing from another loop.
import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import { describeEachProvider } from "../../test/db-providers";
import { recentIterations } from "./iterations.repo";

describeEachProvider("recent iterations of a page of loops", ({ db }) => {
  async function loopWith(numbers: [number, number][]) {
    const id = randomUUID();
    const iteration = Math.max(0, ...numbers.map(([n]) => n));
    await db().prisma.loop.create({ data: { id, goal: "g", agentKind: "demo", config: {}, iteration } });
    const at = new Date("2026-11-23T10:00:00Z");
    await db().prisma.iteration.createMany({
      data: numbers.map(([number, attempt]) => ({
        id: randomUUID(),
        loopId: id,
        number,
        attempt,
        status: attempt === 1 && numbers.some(([n, a]) => n === number && a > 1) ? "interrupted" : "succeeded",
        agentId: "agent",
        input: "",
        output: "",
        scores: {},
        meanScore: number / 100 + attempt / 1000,
        costUsd: 0,
        tokensIn: 0,
        tokensOut: 0,
        startedAt: at,
        finishedAt: at,
        durationMs: 1,
      })),
    });
    return { id, iteration };
  }

  it("the last N rows per loop, oldest first, re-run attempts included as before", async () => {
    const long = await loopWith(Array.from({ length: 50 }, (_, i) => [i + 1, 1] as [number, number]));
    const retried = await loopWith([
      [1, 1],
      [2, 1],
      [2, 2],
      [3, 1],
    ]);
    const empty = await loopWith([]);
    const got = await recentIterations(db().prisma, [long, retried, empty], 3);
    expect(got.get(long.id)!.map((r) => r.number)).toEqual([48, 49, 50]);
    // Iteration 2 ran twice: both attempts are rows, as the per-loop query counted them.
    expect(got.get(retried.id)!.map((r) => [r.number, r.meanScore])).toEqual([
      [2, 0.021],
      [2, 0.022],
      [3, 0.031],
    ]);
    expect(got.get(empty.id)).toEqual([]);
    expect(await recentIterations(db().prisma, [], 3)).toEqual(new Map());
  });
});

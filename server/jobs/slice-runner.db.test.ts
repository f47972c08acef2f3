import { afterEach, expect, it } from "vitest";
import { describeEachProvider } from "../../test/db-providers";
import { asOperator, createHarness, improvingAgent, type Harness } from "../../test/runtime-harness";
import { createLoop } from "../loops/loop-create.service";
import { getLoopDetail } from "../loops/loop-detail.service";

describeEachProvider("job runtime", ({ db }) => {
  let h: Harness | undefined;
  afterEach(async () => h?.stop());

  const newLoop = (agentKind: string, engineConfig: unknown, start = true) =>
    createLoop(
      h!.services,
      { goal: "reach three ticks", agentKind, definition: { agent: { kind: agentKind } }, engineConfig, start },
      asOperator(),
    );

  it("runs a loop to completion with evidence and stores every iteration once", async () => {
    h = createHarness(db(), { improving: improvingAgent(3) });
    const { id } = await newLoop("improving", { stop: { maxIterations: 10, scoreThreshold: 0.9 } });
    await h.dispatcher.idle();
    const loop = await db().prisma.loop.findUniqueOrThrow({ where: { id } });
    expect(loop).toMatchObject({ status: "completed", iteration: 3, leaseOwner: null });
    expect(loop.costUsd).toBeCloseTo(0.03);
    const iterations = await db().prisma.iteration.findMany({ where: { loopId: id }, orderBy: { number: "asc" } });
    expect(iterations.map((i) => [i.number, i.attempt, i.status])).toEqual([
      [1, 1, "succeeded"],
      [2, 1, "succeeded"],
      [3, 1, "succeeded"],
    ]);
    expect(iterations[2]!.meanScore).toBe(1);
    const checkpoints = await db().prisma.checkpoint.count({ where: { loopId: id } });
    expect(checkpoints).toBeGreaterThanOrEqual(4);
    const events = await db().prisma.loopEvent.findMany({ where: { loopId: id }, orderBy: { id: "asc" } });
    expect(events.map((e) => e.type)).toContain("halted");
  });

  it("each iteration_finished event carries the loop's counters after it and the chart point the series sends", async () => {
    h = createHarness(db(), { improving: improvingAgent(3) });
    const { id } = await newLoop("improving", { stop: { maxIterations: 10, scoreThreshold: 0.9 } });
    await h.dispatcher.idle();
    const loop = await db().prisma.loop.findUniqueOrThrow({ where: { id } });
    const ends = await db().prisma.loopEvent.findMany({
      where: { loopId: id, type: "iteration_finished" },
      orderBy: { id: "asc" },
    });
    const summaries = ends.map(
      (e) => (e.payload as { summary: { loop: Record<string, unknown>; point: object } }).summary,
    );
    expect(summaries.map((s) => s.loop.iteration)).toEqual([1, 2, 3]);
    // The page folds these in instead of refetching: they must be what a refetch would show.
    const { series } = await getLoopDetail(db(), id, Date.now());
    expect(
      summaries.map((s) => ({ ...s.point, finishedAt: new Date((s.point as { finishedAt: number }).finishedAt) })),
    ).toEqual(series);
    expect(summaries.at(-1)!.loop).toMatchObject({
      costUsd: loop.costUsd,
      tokensIn: loop.tokensIn,
      bestScore: loop.bestScore,
      lastScore: loop.lastScore,
      health: loop.health,
    });
  });

  it("a liar that always claims done never completes", async () => {
    h = createHarness(db(), {
      liar: () => ({
        output: "done!",
        claim: { done: true, text: "COMPLETE" },
        usage: { input: 10, output: 5, cache: 0 },
        costUsd: 0.001,
        toolCalls: [],
      }),
    });
    const { id } = await newLoop("liar", { stop: { maxIterations: 4, scoreThreshold: 0.9, noProgressIterations: 0 } });
    await h.dispatcher.idle();
    const loop = await db().prisma.loop.findUniqueOrThrow({ where: { id } });
    expect(loop.status).not.toBe("completed");
    expect(loop.stopType).toBe("max_iterations");
    const mismatches = await db().prisma.iteration.count({ where: { loopId: id, claimMismatch: true } });
    expect(mismatches).toBe(4);
  });

  it("a draft waits until it is started", async () => {
    h = createHarness(db(), { improving: improvingAgent(2) });
    const { id } = await newLoop("improving", { stop: { scoreThreshold: 0.9 } }, false);
    await h.dispatcher.idle();
    expect((await db().prisma.loop.findUniqueOrThrow({ where: { id } })).status).toBe("draft");
    expect(h.calls).toHaveLength(0);
  });

  it("pacing releases the loop between iterations and picks it up again", async () => {
    h = createHarness(db(), { improving: improvingAgent(3) });
    const { id } = await newLoop("improving", { stop: { scoreThreshold: 0.9 }, pacing: { delayMs: 150 } });
    // Watch the row until the loop completes: between iterations it must wait with no lease held.
    const seen: { status: string; leased: boolean }[] = [];
    const deadline = Date.now() + 15_000;
    for (;;) {
      const row = await db().prisma.loop.findUniqueOrThrow({ where: { id } });
      seen.push({ status: row.status, leased: row.leaseOwner !== null });
      if (row.status === "completed" || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(seen.at(-1)!.status).toBe("completed");
    expect(seen.some((s) => s.status === "waiting" && !s.leased)).toBe(true);
    await h.dispatcher.idle();
  });
});

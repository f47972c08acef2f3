import { afterEach, expect, it } from "vitest";
import { describeEachProvider } from "../../test/db-providers";
import { asOperator, createHarness, type Harness } from "../../test/runtime-harness";
import { createLoop } from "../loops/loop-create.service";
import { NUL_REPLACEMENT } from "../db/text-scrub";

describeEachProvider("hostile agent output", ({ db }) => {
  let h: Harness | undefined;
  afterEach(async () => h?.stop());

  it("an agent printing a NUL byte still commits its steps and the loop ends", async () => {
    h = createHarness(db(), {
      nul: () => ({
        output: "before\0after",
        claim: { done: false, text: "still\0going" },
        usage: { input: 10, output: 5, cache: 0 },
        costUsd: 0.001,
        toolCalls: [],
      }),
    });
    const { id } = await createLoop(
      h.services,
      {
        goal: "print\0a nul",
        agentKind: "nul",
        definition: { agent: { kind: "nul" } },
        engineConfig: { stop: { maxIterations: 3, scoreThreshold: 0.9, noProgressIterations: 0 } },
        start: true,
      },
      asOperator(),
    );
    await h.dispatcher.idle();
    expect(h.dispatcher.errors).toEqual([]);
    const loop = await db().prisma.loop.findUniqueOrThrow({ where: { id } });
    expect(loop).toMatchObject({ status: "stopped", stopType: "max_iterations", iteration: 3, leaseOwner: null });
    expect(loop.goal).toBe(`print${NUL_REPLACEMENT}a nul`);
    expect(loop.costUsd).toBeCloseTo(0.003);
    const iterations = await db().prisma.iteration.findMany({ where: { loopId: id }, orderBy: { number: "asc" } });
    expect(iterations.map((i) => i.number)).toEqual([1, 2, 3]);
    const stored = JSON.stringify(iterations[0]);
    expect(stored).not.toContain("\\u0000");
    expect(stored).toContain(`before${NUL_REPLACEMENT}after`);
    // Filters are scrubbed the same way, so a NUL in a search is no error either.
    expect(await db().prisma.loop.count({ where: { goal: { contains: "print\0a" } } })).toBe(1);
  });

  it("lone surrogates (a cut surrogate pair, bad bytes decoded from an agent) are stored as U+FFFD on both providers", async () => {
    const lone = "cut\uD83D|low\uDE00|ok\uD83D\uDE00|\uFFFD";
    h = createHarness(db(), {
      surrogates: () => ({
        output: lone,
        claim: { done: false, text: `claim ${lone}` },
        usage: { input: 10, output: 5, cache: 0 },
        costUsd: 0.001,
        toolCalls: [],
        meta: { note: lone, [`key\uDFFF`]: 1 },
      }),
    });
    const { id } = await createLoop(
      h.services,
      {
        goal: `goal ${lone}`,
        agentKind: "surrogates",
        definition: { agent: { kind: "surrogates" } },
        engineConfig: { stop: { maxIterations: 2, scoreThreshold: 0.9, noProgressIterations: 0 } },
        start: true,
      },
      asOperator(),
    );
    await h.dispatcher.idle();
    expect(h.dispatcher.errors).toEqual([]);
    const loop = await db().prisma.loop.findUniqueOrThrow({ where: { id } });
    expect(loop).toMatchObject({ status: "stopped", stopType: "max_iterations", iteration: 2 });
    const clean = "cut\uFFFD|low\uFFFD|ok\uD83D\uDE00|\uFFFD";
    expect(loop.goal).toBe(`goal ${clean}`);
    const iteration = await db().prisma.iteration.findFirstOrThrow({ where: { loopId: id, number: 1 } });
    expect(iteration.output).toBe(clean);
    const stored = JSON.stringify(await db().prisma.iteration.findMany({ where: { loopId: id } }));
    expect(stored).not.toMatch(/\\ud[89a-f][0-9a-f]{2}/i);
    expect(await db().prisma.loop.count({ where: { goal: { contains: "cut\uD83D" } } })).toBe(1);
  });
});

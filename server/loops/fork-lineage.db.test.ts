// A fork continues from its parent's checkpoint: it starts with the limits in
// effect on the parent when it is forked (operator edits included, even ones
// made after the forked iteration), and its history (charts, iteration pages)
// shows the parent's iterations up to the fork point, marked as inherited.
import { afterEach, expect, it } from "vitest";
import { describeEachProvider } from "../../test/db-providers";
import { asOperator, createHarness, waitFor, type Harness, type ScriptedAgent } from "../../test/runtime-harness";
import { createLoop, forkLoop, startLoop } from "./loop-create.service";
import { requestControl } from "./loop-controls.service";
import { getIterationPage, getLoopDetail } from "./loop-detail.service";
import { loadCurrentSnapshot } from "./loop-snapshot";

const quickAgent: ScriptedAgent = (req) =>
  new Promise((resolve) =>
    setTimeout(
      () =>
        resolve({
          output: `attempt ${req.iteration}`,
          claim: { done: false },
          usage: { input: 10, output: 5, cache: 0 },
          costUsd: 0.001,
          toolCalls: [],
        }),
      20,
    ),
  );

describeEachProvider("fork lineage", ({ db }) => {
  let h: Harness | undefined;
  afterEach(async () => h?.stop());

  const loopRow = (id: string) => db().prisma.loop.findUniqueOrThrow({ where: { id } });
  const statusIs = (id: string, ...statuses: string[]) =>
    waitFor(
      () => loopRow(id),
      (l) => statuses.includes(l.status),
      20_000,
    );
  const pageNumbers = async (id: string, beforeNumber?: number) => {
    const page = await getIterationPage(db(), id, { limit: 50, ...(beforeNumber ? { beforeNumber } : {}) });
    return page.items.map((i) => `${i.number}${i.inheritedFrom ? `<${i.inheritedFrom.name}` : ""}`);
  };

  it("a fork starts with the parent's edited limits and shows its history up to the fork point", async () => {
    h = createHarness(db(), { agent: quickAgent }, { scorers: [{ name: "none", score: () => ({ score: 0 }) }] });
    const { id: parent } = await createLoop(
      h.services,
      {
        goal: "keep going",
        name: "parent loop",
        agentKind: "agent",
        definition: {},
        engineConfig: { stop: { maxIterations: 20, noProgressIterations: 0 }, budget: { maxCostUsd: 1 } },
        start: true,
      },
      asOperator(),
    );
    await waitFor(
      () => loopRow(parent),
      (l) => l.iteration >= 2,
      20_000,
    );
    await requestControl(h.services, parent, { kind: "interrupt" }, asOperator());
    const paused = await statusIs(parent, "paused");
    expect(paused.iteration).toBeGreaterThanOrEqual(2);
    // Edited after the checkpoint the fork starts from.
    await requestControl(
      h.services,
      parent,
      { kind: "update_limits", patch: { stop: { maxIterations: 7 }, budget: { maxCostUsd: 0.5 } } },
      asOperator("tighter"),
    );
    expect(await loopRow(parent)).toMatchObject({ maxIterations: 7, budgetUsd: 0.5 });

    const { id: fork } = await forkLoop(h.services, parent, 1, false, asOperator());
    const forkRow = await loopRow(fork);
    expect(forkRow).toMatchObject({ maxIterations: 7, budgetUsd: 0.5, iteration: 1, status: "draft" });
    expect((await loadCurrentSnapshot(db().loopStore, fork))!.config.stop.maxIterations).toBe(7);

    // Before it runs, the fork's history is the parent's iteration 1, marked, and nothing later.
    expect(await pageNumbers(fork)).toEqual(["1<parent loop"]);
    const detail = await getLoopDetail(db(), fork, Date.now());
    expect(detail.fork).toEqual({ parentId: parent, parentName: "parent loop", iteration: 1, inheritedIterations: 1 });
    expect(detail.series.map((p) => [p.number, p.loopId === parent])).toEqual([[1, true]]);

    await startLoop(h.services, fork, asOperator());
    await waitFor(
      () => loopRow(fork),
      (l) => l.iteration >= 3,
      20_000,
    );
    await requestControl(h.services, fork, { kind: "terminate" }, asOperator());
    const ended = await statusIs(fork, "stopped");
    const own = Array.from({ length: ended.iteration - 1 }, (_, i) => `${ended.iteration - i}`);
    expect(await pageNumbers(fork)).toEqual([...own, "1<parent loop"]);
    // Paging walks from the fork's rows into the parent's.
    expect(await pageNumbers(fork, 2)).toEqual(["1<parent loop"]);
    const series = (await getLoopDetail(db(), fork, Date.now())).series;
    expect(series.map((p) => p.number)).toEqual(Array.from({ length: ended.iteration }, (_, i) => i + 1));

    // A fork of the fork: the grandparent's iteration 1, then the fork's 2.
    const { id: grandchild } = await forkLoop(h.services, fork, 2, false, asOperator());
    expect(await pageNumbers(grandchild)).toEqual(["2<parent loop (fork)", "1<parent loop"]);
    // The parent's own page is untouched.
    expect((await pageNumbers(parent)).every((n) => !n.includes("<"))).toBe(true);
  });
});

// Issue 17, "every number true", for the shared report: an interrupted run is
// counted as interrupted (not "Successful iterations: 100%", now "Agent runs that succeeded"), and the limits
// shown are the ones in effect after an operator edit, marked as edited.
// Through the real runtime, controls and share procedures.
import { randomUUID } from "node:crypto";
import { afterEach, expect, it } from "vitest";
import { describeEachProvider } from "../../test/db-providers";
import { asOperator, createHarness, waitFor, type Harness, type ScriptedAgent } from "../../test/runtime-harness";
import { limitRows, successLine } from "../../components/report/report-model";
import { createLoop } from "../loops/loop-create.service";
import { requestControl } from "../loops/loop-controls.service";
import { createShareLink, sharedLoopDetail } from "./share-links.service";

/** Iteration 2's first attempt works until it is killed; everything else answers at once. */
const agent = (): ScriptedAgent => {
  let slowStarted = false;
  return (req) =>
    new Promise((resolve, reject) => {
      const slow = req.iteration === 2 && !slowStarted;
      if (slow) slowStarted = true;
      const timer = setTimeout(
        () =>
          resolve({
            output: `attempt ${req.iteration}`,
            claim: { done: false },
            usage: { input: 10, output: 5, cache: 0 },
            costUsd: 0.001,
            toolCalls: [],
          }),
        slow ? 120_000 : 1,
      );
      req.signal.addEventListener("abort", () => {
        clearTimeout(timer);
        reject(new Error("aborted"));
      });
    });
};

describeEachProvider("the shared report's numbers", ({ db }) => {
  let h: Harness | undefined;
  afterEach(async () => h?.stop());

  it("counts the interrupted run and shows the edited limits in effect", async () => {
    h = createHarness(db(), { agent: agent() }, { scorers: [{ name: "none", score: () => ({ score: 0 }) }] });
    const services = h.services;
    const engineConfig = { stop: { maxIterations: 5, noProgressIterations: 0 }, completion: { allowNoEvidence: true } };
    const { id } = await createLoop(
      services,
      // As createLoopFromDefinition stores it: the definition keeps the limits the loop was created with.
      { goal: "count me right", agentKind: "agent", definition: { loop: engineConfig }, engineConfig, start: true },
      asOperator(),
    );
    await waitFor(
      async () => h!.calls.filter((c) => c.iteration === 2).length,
      (n) => n >= 1,
      20_000,
    );
    await requestControl(services, id, { kind: "kill" }, asOperator());
    await waitFor(
      () => db().prisma.loop.findUniqueOrThrow({ where: { id } }),
      (l) => l.status === "paused",
      20_000,
    );
    await requestControl(
      services,
      id,
      { kind: "update_limits", patch: { stop: { maxIterations: 3, maxCost: 1 } } },
      asOperator(),
    );
    await requestControl(services, id, { kind: "resume" }, asOperator());
    const done = await waitFor(
      () => db().prisma.loop.findUniqueOrThrow({ where: { id } }),
      (l) => l.status === "stopped",
      30_000,
    );
    expect(done.stopType).toBe("max_iterations");

    await createShareLink(db(), { loopId: id, expiresAt: null, createdById: null, newId: randomUUID });
    const shared = await sharedLoopDetail(db(), id, Date.now());
    expect(shared.outcomes).toEqual({ succeeded: 2, interrupted: 1 });
    // The engine's own rate leaves the interruption out; the report does not.
    expect(shared.report?.successRate).toBe(1);
    expect(successLine(shared)).toBe(
      "Agent runs that succeeded: 67% (2 of 3 runs; 1 interrupted); the goal is not met",
    );

    const byKey = Object.fromEntries(shared.limits.map((l) => [l.key, l]));
    expect(byKey["stop.maxIterations"]).toMatchObject({ value: 3, original: 5, edited: true });
    expect(byKey["stop.maxCost"]).toMatchObject({ value: 1, original: 0, edited: true });
    expect(byKey["stop.noProgressIterations"]).toMatchObject({ value: 0, original: 0, edited: false });
    expect(limitRows(shared.limits)).toContainEqual(["Max iterations", "3 (edited; was 5)"]);
  });
});

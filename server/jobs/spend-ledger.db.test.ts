// Every dollar counted (issue 32), on SQLite and PostgreSQL: the spend a
// killed runtime's agent reported reaches the loop's cost the moment the next
// owner records the interrupted attempt, not only at the next safe point
// (which may never come: another crash, a loop that cannot be set up again),
// and loops.spendReconciliation shows reported vs recorded spend.
import { afterEach, expect, it } from "vitest";
import { describeEachProvider } from "../../test/db-providers";
import { agentTaking, asOperator, createHarness, type Harness } from "../../test/runtime-harness";
import { expectLoopCostMatchesRows } from "../../test/spend-invariant";
import { recordInflightAgent } from "../db/agent-runs.repo";
import { createLoop } from "../loops/loop-create.service";
import { createContext } from "../api/context";
import { createCaller } from "../api/root";
import { runSlice } from "./slice-runner";

describeEachProvider("spend ledger", ({ db }) => {
  let h: Harness | undefined;
  afterEach(async () => h?.stop());

  const spend = (costUsd: number) => ({ input: 100, output: 50, cache: 0, costUsd });

  it("a killed runtime's reported spend is on the loop as soon as the next owner records the attempt", async () => {
    h = createHarness(db(), { slow: agentTaking(() => 5) }, { settings: { heartbeatMs: 60_000 } });
    const caller = createCaller(createContext({ services: h.services }));
    const { id } = await createLoop(
      h.services,
      {
        goal: "count every dollar",
        agentKind: "slow",
        definition: {},
        engineConfig: { stop: { maxIterations: 2, noProgressIterations: 0 } },
        start: false,
      },
      asOperator(),
    );
    await db().prisma.loop.update({ where: { id }, data: { status: "queued" } });
    const t0 = Date.now();
    // Runtime A runs iteration 1 twice over (two crashes), its agent reporting spend each time.
    for (const [i, cost] of [0.125, 0.25].entries()) {
      const owner = `a${i}`;
      const at = new Date(t0 + i * 20_000);
      expect(await db().loopStore.claim(id, owner, at, 10_000)).not.toBeNull();
      if (i > 0) await db().loopStore.recordCrashedAttempt(id, owner, at, `rec-${i}`);
      else await db().loopStore.markInflight(id, owner, 1, at);
      expect(await recordInflightAgent(db().prisma, id, owner, 1, { spend: spend(cost) })).toBe(true);
      // What the agent in flight reported is visible as reported, not yet recorded.
      const view = await caller.loops.spendReconciliation({ id });
      expect(view.inflightUsd).toBeCloseTo(cost, 10);
      expect(view.uncountedUsd).toBeCloseTo(cost, 10);
      expect(view.consistent).toBe(true);
    }
    // Runtime B claims after both crashes and records the second: nothing run yet, the loop already counts both.
    const later = new Date(t0 + 60_000);
    expect(await db().loopStore.claim(id, "b", later, 10_000)).not.toBeNull();
    const crashed = await db().loopStore.recordCrashedAttempt(id, "b", later, "rec-b");
    expect(crashed?.uncountedSpend.costUsd).toBeCloseTo(0.375, 10);
    const ledger = await expectLoopCostMatchesRows(db().prisma, id);
    expect(ledger.recordedUsd).toBeCloseTo(0.375, 10);
    expect(await caller.loops.spendReconciliation({ id })).toMatchObject({
      reportedUsd: 0.375,
      recordedUsd: 0.375,
      uncountedUsd: 0,
      interruptedRows: 2,
      consistent: true,
    });

    // The loop then runs to its end under a fresh runtime: the safe points keep the same sum.
    await db().prisma.loop.update({ where: { id }, data: { leaseOwner: null, leaseExpiresAt: null } });
    await runSlice(h.runtime, id);
    const end = await expectLoopCostMatchesRows(db().prisma, id);
    expect(end.recordedUsd).toBeCloseTo(0.375 + 2 * 0.001, 10);
    await expect(caller.loops.spendReconciliation({ id: "no-such-loop" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });
});

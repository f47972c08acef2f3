// Exactly one agent per attempt (issue 32), on SQLite and PostgreSQL. The race
// measured under load: runtime A commits iteration N (marking N+1 in flight)
// just before its lease runs out, falls behind (a stalled heartbeat), and
// launches N+1's agent after runtime B claimed the loop and started attempt 2:
// two agents of one iteration at once. The launch is now fenced in the
// database (fenceLaunch), and a hold not renewed for half its TTL kills its
// agent before the lease can be claimed.
import { afterEach, expect, it } from "vitest";
import { describeEachProvider } from "../../test/db-providers";
import { agentTaking, asOperator, createHarness, waitFor, type Harness } from "../../test/runtime-harness";
import { expectLoopCostMatchesRows } from "../../test/spend-invariant";
import { createLoop } from "../loops/loop-create.service";
import { leaseKeeperOf } from "./lease-keeper";
import { runSlice } from "./slice-runner";

describeEachProvider("agent launch fence", ({ db }) => {
  let h: Harness | undefined;
  afterEach(async () => h?.stop());

  const newLoop = async () => {
    const { id } = await createLoop(
      h!.services,
      {
        goal: "keep going",
        agentKind: "slow",
        definition: {},
        engineConfig: { stop: { maxIterations: 3, noProgressIterations: 0 } },
        start: false,
      },
      asOperator(),
    );
    await db().prisma.loop.update({ where: { id }, data: { status: "queued" } });
    return id;
  };

  it("a runtime whose lease ran out between a commit and the next launch never launches", async () => {
    let loopId = "";
    // Iteration 1's agent returns as A's lease runs out (the heartbeat stalled): nobody has claimed yet,
    // so the owner-fenced commit of iteration 1 still lands and marks iteration 2 in flight.
    const launched: number[] = [];
    h = createHarness(
      db(),
      {
        slow: async (req) => {
          launched.push(req.iteration);
          if (req.iteration === 1)
            await db().prisma.loop.update({
              where: { id: loopId },
              data: { leaseExpiresAt: new Date(Date.now() - 1) },
            });
          return agentTaking(() => 5)(req);
        },
      },
      { settings: { heartbeatMs: 60_000 } },
    );
    loopId = await newLoop();
    const result = await runSlice(h.runtime, loopId);

    expect(result).toMatchObject({ claimed: true, iterations: 1, outcome: "lease_lost" });
    expect(launched).toEqual([1]);
    const row = await db().prisma.loop.findUniqueOrThrow({ where: { id: loopId } });
    // Iteration 2 is marked but never ran: the next owner records attempt 1 as interrupted and runs attempt 2 alone.
    expect([row.inflightIteration, row.inflightAttempt]).toEqual([2, 1]);
    await expectLoopCostMatchesRows(db().prisma, loopId);
    const b = await db().loopStore.claim(loopId, "runtime-b", new Date(), 15_000);
    expect(b).not.toBeNull();
  });

  it("a hold not renewed for half its TTL kills its agent while the lease still stands", async () => {
    let aborted = 0;
    h = createHarness(
      db(),
      {
        slow: (req) => {
          req.signal.addEventListener("abort", () => (aborted = Date.now()));
          return agentTaking(() => 30_000)(req);
        },
      },
      // No timer tick: the test plays a heartbeat whose renewals never reach the database.
      { settings: { heartbeatMs: 60_000, leaseMs: 1_000 } },
    );
    const id = await newLoop();
    const slice = runSlice(h.runtime, id);
    await waitFor(
      () => Promise.resolve(h!.calls.length),
      (n) => n === 1,
    );
    const keeper = leaseKeeperOf(h.runtime);
    keeper.giveUpStale();
    expect(aborted).toBe(0); // a fresh lease is kept
    await new Promise((r) => setTimeout(r, 600));
    keeper.giveUpStale();
    expect(await slice).toMatchObject({ outcome: "lease_lost", iterations: 0 });
    const row = await db().prisma.loop.findUniqueOrThrow({ where: { id } });
    // Stopped before the lease could be claimed by anyone else.
    expect(aborted).toBeGreaterThan(0);
    expect(row.leaseExpiresAt!.getTime()).toBeGreaterThan(aborted);
  });
});

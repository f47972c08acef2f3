// The batched lease keeper on SQLite and PostgreSQL: one renewal for all of a
// process's slices, a lost lease found by it stops its slice before it writes,
// and the same tick says which loops have operator requests waiting.
import { afterEach, expect, it } from "vitest";
import { describeEachProvider } from "../../test/db-providers";
import { agentTaking, asOperator, createHarness, waitFor, type Harness } from "../../test/runtime-harness";
import { insertControlRequest } from "../db/controls.repo";
import { createLoop } from "../loops/loop-create.service";
import { leaseKeeperOf } from "./lease-keeper";
import { runSlice } from "./slice-runner";

/** Answers after `ms`, or fails at once when the runtime aborts the call. */
describeEachProvider("batched lease keeper", ({ db }) => {
  let h: Harness | undefined;
  afterEach(async () => h?.stop());

  const newLoop = async (start = false) =>
    (
      await createLoop(
        h!.services,
        {
          goal: "keep going",
          agentKind: "slow",
          definition: {},
          engineConfig: { stop: { maxIterations: 3, noProgressIterations: 0 } },
          start,
        },
        asOperator(),
      )
    ).id;

  it("renews many leases in one call, names the lost ones and the loops with requests waiting", async () => {
    h = createHarness(db(), { slow: agentTaking(() => 1) });
    const t0 = new Date(Date.now());
    const ids = [await newLoop(), await newLoop(), await newLoop()];
    await db().prisma.loop.updateMany({ where: { id: { in: ids } }, data: { status: "queued" } });
    for (const [i, id] of ids.entries()) expect(await db().loopStore.claim(id, `me:${i}`, t0, 1_000)).not.toBeNull();
    // Loop 2's lease expired and another runtime took it over.
    const later = new Date(t0.getTime() + 5_000);
    expect(await db().loopStore.claim(ids[2]!, "someone-else", later, 1_000)).not.toBeNull();
    await insertControlRequest(db().prisma, {
      id: crypto.randomUUID(),
      loopId: ids[1]!,
      kind: "pause",
      actorId: null,
      actor: "operator",
      reason: null,
    });
    // Loop 2 also has a request, but it is no longer ours to report.
    await insertControlRequest(db().prisma, {
      id: crypto.randomUUID(),
      loopId: ids[2]!,
      kind: "pause",
      actorId: null,
      actor: "operator",
      reason: null,
    });

    const leases = ids.map((loopId, i) => ({ loopId, owner: `me:${i}` }));
    const { lost, pendingControls } = await db().loopStore.renewLeases(leases, later, 60_000);
    expect(lost).toEqual([leases[2]]);
    expect([...pendingControls]).toEqual([ids[1]]);
    const rows = await db().prisma.loop.findMany({ where: { id: { in: ids } } });
    for (const row of rows) {
      if (row.id === ids[2]) {
        expect(row.leaseOwner).toBe("someone-else");
        expect(row.leaseExpiresAt!.getTime()).toBe(later.getTime() + 1_000);
      } else expect(row.leaseExpiresAt!.getTime()).toBe(later.getTime() + 60_000);
    }
  });

  it("a lease owner that is ours for another loop does not keep a loop it lost", async () => {
    h = createHarness(db(), { slow: agentTaking(() => 1) });
    const now = new Date();
    const [a, b] = [await newLoop(), await newLoop()];
    await db().prisma.loop.updateMany({ where: { id: { in: [a, b] } }, data: { status: "queued" } });
    await db().loopStore.claim(a, "owner-a", now, 60_000);
    await db().loopStore.claim(b, "owner-b", now, 60_000);
    // Both owners are live in this process, but the pairs are crossed.
    const { lost } = await db().loopStore.renewLeases(
      [
        { loopId: a, owner: "owner-b" },
        { loopId: b, owner: "owner-b" },
      ],
      now,
      60_000,
    );
    expect(lost).toEqual([{ loopId: a, owner: "owner-b" }]);
  });

  it("a running slice whose lease is taken over stops at the keeper's next tick and stores nothing", async () => {
    // Heartbeats far apart: the test ticks the keeper itself, so only the batched renewal can notice.
    h = createHarness(db(), { slow: agentTaking(() => 30_000) }, { settings: { heartbeatMs: 60_000 } });
    const id = await newLoop();
    await db().prisma.loop.update({ where: { id }, data: { status: "queued" } });
    const slice = runSlice(h.runtime, id);
    await waitFor(
      () => db().prisma.loop.findUniqueOrThrow({ where: { id } }),
      (l) => l.inflightIteration === 1,
    );
    // Another runtime takes the loop over (as if our lease had expired).
    await db().prisma.loop.update({
      where: { id },
      data: { leaseOwner: "thief", leaseExpiresAt: new Date(Date.now() + 60_000) },
    });
    await leaseKeeperOf(h.runtime).tick();

    expect(await slice).toMatchObject({ claimed: true, iterations: 0, outcome: "lease_lost" });
    const loop = await db().prisma.loop.findUniqueOrThrow({ where: { id } });
    expect(loop.leaseOwner).toBe("thief");
    expect(await db().prisma.iteration.count({ where: { loopId: id } })).toBe(0);
  });

  it("one renewal per tick keeps many slices' leases alive, and one tick finds them all lost", async () => {
    h = createHarness(db(), { slow: agentTaking(() => 30_000) }, { settings: { heartbeatMs: 60_000 } });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await newLoop());
    await db().prisma.loop.updateMany({ where: { id: { in: ids } }, data: { status: "queued" } });
    const slices = ids.map((id) => runSlice(h!.runtime, id));
    await waitFor(
      () => db().prisma.loop.count({ where: { id: { in: ids }, inflightIteration: 1 } }),
      (n) => n === ids.length,
    );
    const before = await db().prisma.loop.findMany({ where: { id: { in: ids } } });
    await new Promise((r) => setTimeout(r, 20));
    await leaseKeeperOf(h.runtime).tick();
    const after = await db().prisma.loop.findMany({ where: { id: { in: ids } } });
    for (const row of after) {
      const was = before.find((b) => b.id === row.id)!;
      expect(row.leaseOwner).toBe(was.leaseOwner);
      expect(row.leaseExpiresAt!.getTime()).toBeGreaterThan(was.leaseExpiresAt!.getTime());
    }

    // Every lease goes at once: one tick finds them all lost, and each slice stops.
    await db().prisma.loop.updateMany({ where: { id: { in: ids } }, data: { leaseOwner: "thief" } });
    await leaseKeeperOf(h.runtime).tick();
    for (const s of slices) expect(await s).toMatchObject({ outcome: "lease_lost", iterations: 0 });
    expect(await db().prisma.iteration.count({ where: { loopId: { in: ids } } })).toBe(0);
  });

  it("a kill reaches a running slice through the keeper's report", async () => {
    h = createHarness(db(), { slow: agentTaking(() => 30_000) }, { settings: { heartbeatMs: 100 } });
    const id = await newLoop();
    await db().prisma.loop.update({ where: { id }, data: { status: "queued" } });
    const slice = runSlice(h.runtime, id);
    await waitFor(
      () => db().prisma.loop.findUniqueOrThrow({ where: { id } }),
      (l) => l.inflightIteration === 1,
    );
    const killId = crypto.randomUUID();
    await insertControlRequest(db().prisma, {
      id: killId,
      loopId: id,
      kind: "kill",
      actorId: null,
      actor: "operator",
      reason: "enough",
    });
    expect(await slice).toMatchObject({ claimed: true, outcome: "paused" });
    const rows = await db().prisma.iteration.findMany({ where: { loopId: id } });
    expect(rows.map((r) => r.status)).toEqual(["interrupted"]);
    expect(await db().prisma.controlRequest.findUniqueOrThrow({ where: { id: killId } })).toMatchObject({
      status: "applied",
    });
  });
});

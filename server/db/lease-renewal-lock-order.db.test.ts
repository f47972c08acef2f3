// Grouped step commits and the batched lease renewal both lock many loop rows
// in one transaction. Before they took them in one order (by id), a batch
// locking its loops statement by statement and a renewal locking all of them
// in one statement deadlocked on PostgreSQL, and the database aborted one side:
// a step that was never committed, or a renewal that kept no lease. Here many
// loops commit grouped steps, in a shuffled order each round, while renewals
// of all their leases run back to back; nothing may fail.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { expect, it } from "vitest";
import { describeEachProvider } from "../../test/db-providers";
import { openDatabase } from "./client";
import { iterationStep } from "../../test/step-write-fixture";

const LOOPS = 64;
const ROUNDS = 12;

const shuffled = <T>(items: readonly T[]) => {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
};

describeEachProvider("grouped steps beside the batched lease renewal", ({ db, temp, kind }) => {
  it("never deadlock: every step commits and every renewal keeps every lease", async () => {
    const far = new Date(Date.now() + 3_600_000);
    const ids = Array.from({ length: LOOPS }, () => randomUUID());
    await db().prisma.loop.createMany({
      data: ids.map((id) => ({
        id,
        goal: "g",
        agentKind: "command",
        config: {},
        status: "running",
        leaseOwner: `me:${id}`,
        leaseExpiresAt: far,
      })),
    });
    const leases = ids.map((loopId) => ({ loopId, owner: `me:${loopId}` }));
    // A database of its own with a wide window, so large batches are certain to form.
    const grouped = openDatabase(temp().target, { groupCommitMs: 10 });
    const step = (loopId: string, n: number) => iterationStep(loopId, n, `me:${loopId}`);
    // SQLite: one process has one connection, as the app does. Two connections in one thread would
    // block each other, a busy wait on one stalling the other's open transaction in the same thread.
    const renewing = kind === "sqlite" ? grouped.loopStore : db().loopStore;
    let done = false;
    let renewals = 0;
    const renewalErrors: unknown[] = [];
    const lostLeases: string[] = [];
    // The lease keeper of this process, renewing as fast as it can (a renewal per step, and more).
    const renewer = (async () => {
      while (!done) {
        try {
          const { lost } = await renewing.renewLeases(shuffled(leases), new Date(), 3_600_000);
          lostLeases.push(...lost.map((l) => l.loopId));
          renewals++;
        } catch (error) {
          renewalErrors.push(error);
        }
        // Back to back, but yielding to timers and I/O between renewals as a timer-driven keeper does:
        // on SQLite each renewal may settle without ever leaving the microtask queue, starving the
        // group commit's window timer (the test then never ends).
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    const stepErrors: unknown[] = [];
    try {
      for (let n = 1; n <= ROUNDS; n++) {
        const results = await Promise.allSettled(shuffled(ids).map((id) => grouped.loopStore.commitStep(step(id, n))));
        for (const r of results) if (r.status === "rejected") stepErrors.push(r.reason);
      }
    } finally {
      done = true;
      await renewer;
      await grouped.close();
    }
    expect(stepErrors.map(String)).toEqual([]);
    expect(renewalErrors.map(String)).toEqual([]);
    expect(lostLeases).toEqual([]);
    expect(renewals).toBeGreaterThan(0);
    // The batches really were shared (the point of the test), and every step is stored once.
    expect(grouped.stepCommit!.stats.largestBatch).toBeGreaterThan(1);
    expect(await db().prisma.iteration.count({ where: { loopId: { in: ids } } })).toBe(LOOPS * ROUNDS);
  });

  // PostgreSQL's renewal skips locked rows first: a row locked while it runs must still be renewed
  // once free (a busy loop must not lose a live lease), and a row a thief took while it was locked
  // must come back lost.
  it.runIf(kind === "postgresql")(
    "a renewal waits for a locked row alone: renews it if still ours, reports it lost if taken",
    async () => {
      const soon = new Date(Date.now() + 1_000);
      const [mine, stolen, free] = [randomUUID(), randomUUID(), randomUUID()];
      await db().prisma.loop.createMany({
        data: [mine, stolen, free].map((id) => ({
          id,
          goal: "g",
          agentKind: "command",
          config: {},
          status: "running",
          leaseOwner: `me:${id}`,
          leaseExpiresAt: soon,
        })),
      });
      const other = new pg.Client({ connectionString: temp().target.url });
      await other.connect();
      try {
        await other.query("BEGIN");
        await other.query(`SELECT 1 FROM "Loop" WHERE "id" = $1 FOR NO KEY UPDATE`, [mine]);
        await other.query(`UPDATE "Loop" SET "leaseOwner" = 'thief' WHERE "id" = $1`, [stolen]);
        const now = new Date();
        let settled = false;
        const renewal = db()
          .loopStore.renewLeases(
            [mine, stolen, free].map((loopId) => ({ loopId, owner: `me:${loopId}` })),
            now,
            60_000,
          )
          .finally(() => (settled = true));
        // The unlocked row is renewed at once; the locked ones wait for their holder.
        await expect
          .poll(async () => (await db().prisma.loop.findUniqueOrThrow({ where: { id: free } })).leaseExpiresAt)
          .toEqual(new Date(now.getTime() + 60_000));
        expect(settled).toBe(false);
        await other.query("COMMIT");
        const { lost } = await renewal;
        expect(lost.map((l) => l.loopId)).toEqual([stolen]);
        const rows = await db().prisma.loop.findMany({ where: { id: { in: [mine, stolen] } } });
        expect(rows.find((r) => r.id === mine)!.leaseExpiresAt).toEqual(new Date(now.getTime() + 60_000));
        expect(rows.find((r) => r.id === stolen)!.leaseExpiresAt).toEqual(soon);
      } finally {
        await other.end();
      }
    },
  );
});

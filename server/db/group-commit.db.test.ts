// Group commit: concurrent loops' steps share one transaction and one fsync,
// each still fenced alone; closing the database settles whatever still waits;
// and on SQLite a batch never joins a Prisma transaction on the same connection.
import { expect, it } from "vitest";
import { describeEachProvider } from "../../test/db-providers";
import { iterationStep, runningLoop } from "../../test/step-write-fixture";
import { openDatabase } from "./client";
import { LeaseLostError } from "./loop-lease.repo";
import { DatabaseClosedError } from "./step-errors";

const AT = new Date("2026-11-24T01:02:03.456Z");
const LATER = new Date("2026-11-24T01:02:04Z");

describeEachProvider("group commit", ({ db, temp, kind }) => {
  const loop = (lease: string | null) => runningLoop(db().prisma, lease, LATER);

  it("closing the database fails the steps still queued for group commit with a clear error, and stores none of them", async () => {
    // A wide window: the second loop's step waits for company when the database closes.
    const grouped = openDatabase(temp().target, { groupCommitMs: 5_000 });
    const [first, second] = [await loop("me"), await loop("me")];
    const committing = grouped.loopStore.commitStep(iterationStep(first, 1, "me", AT));
    const queued = grouped.loopStore.commitStep(iterationStep(second, 1, "me", AT));
    const settled = Promise.allSettled([committing, queued]);
    await grouped.close();
    // Old code: the queued promise never settled (its timer was cleared) and this race timed out.
    const outcome = await Promise.race([settled, new Promise((r) => setTimeout(() => r("unsettled"), 2_000))]);
    expect(outcome).not.toBe("unsettled");
    const [a, b] = outcome as PromiseSettledResult<unknown>[];
    expect(a!.status).toBe("fulfilled");
    expect(b).toMatchObject({ status: "rejected", reason: expect.any(DatabaseClosedError) });
    expect((b as PromiseRejectedResult).reason.message).toMatch(/database was closed .* nothing of it was stored/);
    expect(await db().prisma.iteration.count({ where: { loopId: second } })).toBe(0);
    expect(await db().prisma.iteration.count({ where: { loopId: first } })).toBe(1);
    // A step offered after the close fails at once, the same way.
    await expect(grouped.loopStore.commitStep(iterationStep(second, 2, "me", AT))).rejects.toBeInstanceOf(
      DatabaseClosedError,
    );
  });

  it("an urgent write (an operator's control) commits at once, ahead of steps waiting for company", async () => {
    // A wide window: the second loop's step waits for company for 5 s.
    const grouped = openDatabase(temp().target, { groupCommitMs: 5_000 });
    let queued: Promise<unknown> = Promise.resolve();
    let release = () => {};
    try {
      const [first, second, clicked] = [await loop("me"), await loop("me"), await loop("me")];
      // On PostgreSQL the first step is held on its row lock, so the second stays queued behind it for
      // certain (it goes as soon as the first commits, which, unheld, raced the urgent write's spare lane).
      // On SQLite the urgent write has no spare lane: it goes next, ahead of the queue, with no hold needed.
      const holding =
        kind === "postgresql"
          ? new Promise<void>((locked) => {
              void db().prisma.$transaction(
                async (tx) => {
                  await tx.$queryRaw`SELECT "id" FROM "Loop" WHERE "id" = ${first} FOR UPDATE`;
                  locked();
                  await new Promise<void>((r) => (release = r));
                },
                { timeout: 30_000 },
              );
            })
          : Promise.resolve();
      await holding;
      let firstDone = false;
      const committing = grouped.loopStore.commitStep(iterationStep(first, 1, "me", AT)).finally(() => {
        firstDone = true;
      });
      let queuedDone = false;
      queued = grouped.loopStore.commitStep(iterationStep(second, 1, "me", AT)).finally(() => {
        queuedDone = true;
      });
      // Old code: the urgent write joined the queue and waited out the 5 s window with it.
      await grouped.loopStore.commitStep(iterationStep(clicked, 1, "me", AT), { urgent: true });
      expect(queuedDone).toBe(false);
      // The hold held: the first step was still waiting on its row when the urgent write committed.
      if (kind === "postgresql") expect(firstDone).toBe(false);
      expect(await db().prisma.iteration.count({ where: { loopId: clicked } })).toBe(1);
      release();
      await committing;
    } finally {
      release();
      await grouped.close();
      await Promise.allSettled([queued]);
    }
  });

  it("group commit: concurrent steps share transactions, and one failing fence fails alone", async () => {
    // A database of its own with a wide window, so the batches are certain to form.
    const grouped = openDatabase(temp().target, { groupCommitMs: 20 });
    try {
      const ids = await Promise.all(Array.from({ length: 12 }, () => loop("me")));
      const lost = await loop("thief");
      const step = (loopId: string, n: number) => iterationStep(loopId, n, "me", AT);
      const results = await Promise.allSettled([...ids, lost].map((id) => grouped.loopStore.commitStep(step(id, 1))));
      expect(results.slice(0, -1).every((r) => r.status === "fulfilled")).toBe(true);
      expect(results.at(-1)).toMatchObject({ status: "rejected", reason: expect.any(LeaseLostError) });
      const stats = grouped.stepCommit!.stats;
      expect(stats.writes).toBe(13);
      expect(stats.transactions).toBeLessThan(13);
      expect(stats.largestBatch).toBeGreaterThan(1);
      // Every acknowledged step is there; the fenced-out one left nothing.
      expect(await db().prisma.iteration.count({ where: { loopId: { in: ids } } })).toBe(12);
      expect(await db().prisma.iteration.count({ where: { loopId: lost } })).toBe(0);
      expect(await db().prisma.loopEvent.count({ where: { loopId: lost } })).toBe(0);
      // A duplicate iteration row (a unique violation) also fails alone, as a storage conflict.
      const again = await Promise.allSettled([
        grouped.loopStore.commitStep(step(ids[0]!, 1)),
        grouped.loopStore.commitStep(step(ids[1]!, 2)),
      ]);
      expect(again[0]!.status).toBe("rejected");
      expect(again[1]!.status).toBe("fulfilled");
    } finally {
      await grouped.close();
    }
  });

  // SQLite only: PostgreSQL gives each transaction a connection of its own.
  it.runIf(kind === "sqlite")(
    "a lean batch never runs inside a Prisma interactive transaction on the same connection",
    async () => {
      const id = await loop("me");
      let inside = 0;
      // Prisma's transaction holds the connection; the lean commit must wait for it, not join it.
      await db()
        .prisma.$transaction(async (tx) => {
          const commit = db().loopStore.commitStep({
            loopId: id,
            fence: { owner: "me" },
            loop: { iteration: 9 },
            ended: false,
            events: [],
            acks: [],
          });
          await new Promise((r) => setTimeout(r, 50));
          inside = (await tx.loop.findUniqueOrThrow({ where: { id } })).iteration;
          void commit.catch(() => undefined);
          throw new Error("roll back");
        })
        .catch((error: Error) => expect(error.message).toBe("roll back"));
      expect(inside).toBe(0);
      // Prisma's rollback did not take the lean commit with it.
      await expect.poll(async () => (await db().prisma.loop.findUniqueOrThrow({ where: { id } })).iteration).toBe(9);
    },
  );
});

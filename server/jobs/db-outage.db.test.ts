import { afterEach, expect, it } from "vitest";
import pg from "pg";
import { describeEachProvider, pgAdminUrl } from "../../test/db-providers";
import { asOperator, createHarness, waitFor, type Harness } from "../../test/runtime-harness";
import { createLoop } from "../loops/loop-create.service";
import { startSweeper, type Sweeper } from "./sweeper";

/** Drops every server connection to this test's own database (never the shared server's other databases). */
async function terminateBackends(url: string) {
  const name = new URL(url).pathname.slice(1);
  const admin = new pg.Client({ connectionString: pgAdminUrl() });
  await admin.connect();
  try {
    await admin.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
      [name],
    );
  } finally {
    await admin.end();
  }
}

describeEachProvider("database outage", ({ db, kind }) => {
  let h: Harness | undefined;
  let sweeper: Sweeper | undefined;
  afterEach(async () => {
    sweeper?.stop();
    await h?.stop();
  });

  it.runIf(kind === "postgresql")(
    "connections killed under load fail no loop and lose or double no iteration",
    async () => {
      h = createHarness(
        db(),
        {
          slow: async (req) => {
            await new Promise((r) => setTimeout(r, 40));
            return {
              output: `step ${req.iteration}`,
              claim: { done: false },
              usage: { input: 1, output: 1, cache: 0 },
              costUsd: 0.01,
              toolCalls: [],
            };
          },
        },
        { settings: { leaseMs: 1_000 } },
      );
      const ids: string[] = [];
      for (let i = 0; i < 10; i++) {
        const { id } = await createLoop(
          h.services,
          {
            goal: `loop ${i}`,
            agentKind: "slow",
            definition: { agent: { kind: "slow" } },
            engineConfig: { stop: { maxIterations: 6, scoreThreshold: 1, noProgressIterations: 0 } },
            start: true,
          },
          asOperator(),
        );
        ids.push(id);
      }
      sweeper = startSweeper(db(), h.dispatcher, 200);
      for (let i = 0; i < 3; i++) {
        await new Promise((r) => setTimeout(r, 150));
        await terminateBackends(db().target.url);
      }
      const loops = await waitFor(
        () => db().prisma.loop.findMany({ where: { id: { in: ids } } }),
        (rows) => rows.every((l) => l.finishedAt !== null),
        60_000,
      );
      expect(loops.filter((l) => l.status === "failed").map((l) => l.stopReason)).toEqual([]);
      for (const loop of loops) {
        expect(loop).toMatchObject({ inflightIteration: null, leaseOwner: null });
        expect(loop.iteration).toBeGreaterThan(0);
        const rows = await db().prisma.iteration.findMany({
          where: { loopId: loop.id, status: { not: "interrupted" } },
        });
        expect(rows.map((r) => r.number).sort((a, b) => a - b)).toEqual(
          Array.from({ length: loop.iteration }, (_, i) => i + 1),
        );
      }
    },
    90_000,
  );
});

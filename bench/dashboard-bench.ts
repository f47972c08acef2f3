// What the dashboard costs at scale: `loops.byId` for a loop of 20,000
// iterations (time and payload), `loops.list` over 10,000 loops, and
// `loops.list` during a burst of 1,000 loop creations. The same
// service calls the routers make, on generated rows.
import type { Database } from "../server/db/client";
import { getLoopDetail } from "../server/loops/loop-detail.service";
import { listLoopSummaries } from "../server/loops/loop-list.service";
import { percentile } from "./runtime-bench";
import { createLoop } from "../server/loops/loop-create.service";
import { systemDeps } from "../server/jobs/system-deps";
import { LOCAL_OPERATOR } from "../server/auth/actor";

const LONG_LOOP = "bench-long-loop";

async function seed(db: Database, loops: number, iterations: number) {
  const at = new Date("2026-11-23T10:00:00Z");
  for (let i = 0; i < loops; i += 1000) {
    await db.prisma.loop.createMany({
      data: Array.from({ length: Math.min(1000, loops - i) }, (_, k) => ({
        id: `bench-loop-${i + k}`,
        goal: `goal ${i + k}`,
        agentKind: "demo",
        config: { agent: { kind: "demo" } },
        status: (i + k) % 5 === 0 ? "running" : "completed",
        costUsd: ((i + k) % 97) / 100,
        iteration: (i + k) % 40,
      })),
    });
  }
  await db.prisma.loop.create({
    data: {
      id: LONG_LOOP,
      goal: "a long loop",
      agentKind: "demo",
      config: {},
      status: "running",
      iteration: iterations,
    },
  });
  for (let n = 0; n < iterations; n += 1000) {
    await db.prisma.iteration.createMany({
      data: Array.from({ length: Math.min(1000, iterations - n) }, (_, k) => ({
        id: `bench-it-${n + k + 1}`,
        loopId: LONG_LOOP,
        number: n + k + 1,
        status: "succeeded",
        agentId: "agent",
        input: "x".repeat(200),
        output: "y".repeat(1000),
        scores: { tests: { score: ((n + k) % 100) / 100, reason: "r" } },
        meanScore: ((n + k) % 100) / 100,
        costUsd: 0.01,
        tokensIn: 1000,
        tokensOut: 200,
        startedAt: at,
        finishedAt: at,
        durationMs: 1000,
      })),
    });
  }
}

async function timed<T>(samples: number, fn: () => Promise<T>) {
  const ms: number[] = [];
  let last: T | undefined;
  for (let i = 0; i < samples; i++) {
    const t = performance.now();
    last = await fn();
    ms.push(performance.now() - t);
  }
  return { p50: percentile(ms, 50), p95: percentile(ms, 95), last: last as T };
}

export async function measureDashboard(db: Database, options = { loops: 10_000, iterations: 20_000, samples: 30 }) {
  await seed(db, options.loops, options.iterations);
  const now = Date.now();
  const detail = await timed(options.samples, () => getLoopDetail(db, LONG_LOOP, now, { canOperate: true }));
  const list = await timed(options.samples, () =>
    listLoopSummaries(db, { sort: "updated", direction: "desc", limit: 25 }),
  );
  const filtered = await timed(options.samples, () =>
    listLoopSummaries(db, { status: ["running"], sort: "cost", direction: "desc", limit: 25 }),
  );
  return {
    byId: { p50: detail.p50, p95: detail.p95, kb: JSON.stringify(detail.last).length / 1024 },
    list: { p50: list.p50, p95: list.p95 },
    listFiltered: { p50: filtered.p50, p95: filtered.p95 },
  };
}

/**
 * `loops.list` while loops are being created: `creations` loops through the
 * same service `loops.create` calls (a row, its first checkpoint and an event
 * in one transaction), `concurrency` at a time, as a script hammering the API
 * would, while one reader lists the first page again and again. The figure is
 * the reader's p95 during the burst.
 */
export async function measureListDuringBurst(db: Database, options = { creations: 1_000, concurrency: 8 }) {
  const services = { db, dispatcher: { dispatch: () => undefined, dispatchAt: () => undefined }, engine: systemDeps };
  const acting = { actor: LOCAL_OPERATOR, reason: null };
  let created = 0;
  let done = false;
  const creator = async () => {
    while (created < options.creations) {
      const n = created++;
      // Each creation is its own request (task), as over HTTP; see the reader.
      await new Promise((resolve) => setImmediate(resolve));
      await createLoop(
        services,
        {
          goal: `burst ${n}`,
          agentKind: "demo",
          definition: { agent: { kind: "demo" }, loop: { completion: { allowNoEvidence: true } } },
          engineConfig: { completion: { allowNoEvidence: true } },
          start: n % 2 === 0,
        },
        acting,
      );
    }
  };
  const ms: number[] = [];
  const reader = async () => {
    while (!done) {
      // A request arrives as its own task. Without these yields, SQLite's
      // synchronous driver settles every query as a microtask, and whichever
      // side runs first starves the other.
      await new Promise((resolve) => setImmediate(resolve));
      const t = performance.now();
      await listLoopSummaries(db, { sort: "updated", direction: "desc", limit: 25 });
      ms.push(performance.now() - t);
    }
  };
  const started = performance.now();
  const reading = reader();
  await Promise.all(Array.from({ length: options.concurrency }, creator));
  const burstMs = performance.now() - started;
  done = true;
  await reading;
  return { p50: percentile(ms, 50), p95: percentile(ms, 95), samples: ms.length, burstMs };
}

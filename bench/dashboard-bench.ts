// What the dashboard costs at scale: `loops.byId` for a loop of 20,000
// iterations (time and payload), `loops.list` over 10,000 loops holding
// 1,000,000 iterations between them, and `loops.list` during a burst of 1,000
// loop creations. The same service calls the routers make, on generated rows.
import type { Database } from "../server/db/client";
import { getLoopDetail } from "../server/loops/loop-detail.service";
import { clearChartSeriesCache } from "../server/loops/chart-series";
import { listLoopSummaries } from "../server/loops/loop-list.service";
import { percentile } from "./runtime-bench";
import { createLoop } from "../server/loops/loop-create.service";
import { systemDeps } from "../server/jobs/system-deps";
import { LOCAL_OPERATOR } from "../server/auth/actor";

export const LONG_LOOP = "bench-long-loop";

/**
 * `perLoop` iterations for every bench loop, written by the database itself
 * (INSERT … SELECT over a generated range): a million rows through Prisma's
 * createMany would take longer than every figure measured on them.
 */
async function seedListIterations(db: Database, perLoop: number, at: Date) {
  if (perLoop <= 0) return;
  const pg = db.kind === "postgresql";
  const scores = `'{"tests":{"score":0.5,"reason":"r"}}'${pg ? "::jsonb" : ""}`;
  const [started, finished] = pg ? ["$1", "$1"] : ["?", "?"];
  await db.prisma.$executeRawUnsafe(
    `WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < ${Math.floor(perLoop)})
     INSERT INTO "Iteration" ("id", "loopId", "number", "attempt", "status", "agentId", "agent", "input", "output",
       "scores", "meanScore", "costUsd", "tokensIn", "tokensOut", "startedAt", "finishedAt", "durationMs")
     SELECT l."id" || '-' || n.x, l."id", n.x, 1, 'succeeded', 'agent', 'primary', 'input of the iteration',
       'output of the iteration', ${scores}, (n.x % 100) / 100.0, 0.01, 1000, 200, ${started}, ${finished}, 1000
     FROM "Loop" l CROSS JOIN n WHERE l."id" LIKE 'bench-loop-%'`,
    ...(pg ? [at] : [at, at]),
  );
  await db.prisma.$executeRawUnsafe(
    `UPDATE "Loop" SET "iteration" = ${Math.floor(perLoop)} WHERE "id" LIKE 'bench-loop-%'`,
  );
}

export async function seed(db: Database, loops: number, iterations: number, listIterations: number) {
  const at = new Date("2026-11-23T10:00:00Z");
  for (let i = 0; i < loops; i += 1000) {
    await db.prisma.loop.createMany({
      data: Array.from({ length: Math.min(1000, loops - i) }, (_, k) => ({
        id: `bench-loop-${i + k}`,
        goal: `goal ${i + k}`,
        config: { agent: { kind: "demo" } },
        status: (i + k) % 5 === 0 ? "running" : "completed",
        costUsd: ((i + k) % 97) / 100,
        iteration: (i + k) % 40,
        agentKind: (i + k) % 3 === 0 ? "command" : "demo",
      })),
    });
  }
  await seedListIterations(db, Math.floor(listIterations / loops), at);
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
  // What autovacuum would have done by now on a live server: fresh statistics, and a visibility map
  // so PostgreSQL's index-only scans need not visit the table.
  if (db.kind === "postgresql") await db.prisma.$executeRawUnsafe(`VACUUM ANALYZE`);
}

/** Iteration `number` (attempt `attempt`) of the long loop, as the runtime appends it. */
export function appendLongIteration(db: Database, number: number, attempt = 1) {
  const at = new Date("2026-11-23T10:00:00Z");
  return db.prisma.iteration.create({
    data: {
      id: `bench-it-${number}-${attempt}`,
      loopId: LONG_LOOP,
      number,
      attempt,
      status: attempt > 1 ? "succeeded" : number % 7 === 0 ? "failed" : "succeeded",
      agentId: "agent",
      input: "x".repeat(200),
      output: "y".repeat(1000),
      scores: { tests: { score: (number % 100) / 100, reason: "r" } },
      meanScore: (number % 100) / 100,
      costUsd: 0.01,
      tokensIn: 1000,
      tokensOut: 200,
      handoffTrigger: number % 50 === 0 ? "context" : null,
      startedAt: at,
      finishedAt: at,
      durationMs: 1000,
    },
  });
}

/**
 * `loops.byId` while the long loop runs: before each call it gains an
 * iteration (every 10th call, another attempt of the last), so the series'
 * range never matches the cached one. Every 5th step the same call is also
 * timed with the cache emptied first (a loop's first view, or the whole
 * downsampling every view paid before), alternating with the appended calls
 * in one window. `steps` crosses a change of run length at 20,000 iterations
 * (every 133 iterations), so those full recomputations are in the figures.
 */
async function timedWhileAppending(db: Database, byId: () => Promise<unknown>, steps: number) {
  let last = (await db.prisma.iteration.findFirst({ where: { loopId: LONG_LOOP }, orderBy: { number: "desc" } }))!
    .number;
  let attempt = 1;
  const appended: number[] = [];
  const cold: number[] = [];
  let appendedCpu = 0;
  let coldCpu = 0;
  const time = async (ms: number[]) => {
    const cpu = process.cpuUsage();
    const t = performance.now();
    await byId();
    ms.push(performance.now() - t);
    const used = process.cpuUsage(cpu);
    return (used.user + used.system) / 1000;
  };
  for (let i = 0; i < steps; i++) {
    if (i % 10 === 9) await appendLongIteration(db, last, ++attempt);
    else await appendLongIteration(db, ++last, (attempt = 1));
    appendedCpu += await time(appended);
    if (i % 5 === 4) coldCpu += (clearChartSeriesCache(db), await time(cold));
  }
  return {
    appendedP50: percentile(appended, 50),
    appendedP95: percentile(appended, 95),
    appendedCpu: appendedCpu / appended.length,
    coldP50: percentile(cold, 50),
    coldP95: percentile(cold, 95),
    coldCpu: coldCpu / cold.length,
  };
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

export async function measureDashboard(
  db: Database,
  options = { loops: 10_000, iterations: 20_000, listIterations: 1_000_000, samples: 30 },
) {
  const seeding = performance.now();
  await seed(db, options.loops, options.iterations, options.listIterations);
  console.error(`  seeded in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);
  const now = Date.now();
  const byId = () => getLoopDetail(db, LONG_LOOP, now, { canOperate: true });
  // The first call downsamples; later calls for the unchanged loop reuse the cached series.
  const first = await timed(1, byId);
  const cpu = process.cpuUsage();
  const detail = await timed(options.samples, byId);
  const used = process.cpuUsage(cpu);
  const running = await timedWhileAppending(db, byId, options.samples * 5);
  const list = await timed(options.samples, () =>
    listLoopSummaries(db, { sort: "updated", direction: "desc", limit: 25 }),
  );
  const filtered = await timed(options.samples, () =>
    listLoopSummaries(db, { status: ["running"], sort: "cost", direction: "desc", limit: 25 }),
  );
  const byAgent = await timed(options.samples, () =>
    listLoopSummaries(db, { agentKind: ["command"], sort: "iteration", direction: "asc", limit: 25 }),
  );
  return {
    byId: {
      first: first.p50,
      p50: detail.p50,
      p95: detail.p95,
      cpu: (used.user + used.system) / 1000 / options.samples,
      ...running,
      kb: JSON.stringify(detail.last).length / 1024,
    },
    list: { p50: list.p50, p95: list.p95 },
    listFiltered: { p50: filtered.p50, p95: filtered.p95 },
    listByAgent: { p50: byAgent.p50, p95: byAgent.p95 },
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

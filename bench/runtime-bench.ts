// Runtime figures with an instant in-process agent: per-iteration overhead
// (engine + persistence) and sustained iterations per second.
import type { AgentPort } from "../server/engine";
import type { Database } from "../server/db/client";
import { LocalDispatcher } from "../server/jobs/local-dispatcher";
import { Semaphore } from "../server/jobs/semaphore";
import { DEFAULT_SETTINGS, type JobRuntime } from "../server/jobs/runtime-deps";
import { systemDeps } from "../server/jobs/system-deps";
import { startWorker } from "../server/jobs/worker";
import { createLoop } from "../server/loops/loop-create.service";
import { LOCAL_OPERATOR } from "../server/auth/actor";

export const instantAgent = (onCall?: () => void): AgentPort => ({
  run: async (req) => {
    onCall?.();
    return {
      output: `answer ${req.iteration}`,
      claim: { done: false },
      usage: { input: 50, output: 10, cache: 0 },
      costUsd: 0.0001,
      toolCalls: [],
    };
  },
});

const ENGINE_CONFIG = (maxIterations: number) => ({
  stop: { maxIterations, noProgressIterations: 0, maxConsecutiveFailures: 0 },
  reflection: { enabled: false },
  health: { checkInterval: 0 },
});

export function percentile(values: number[], p: number) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

function runtimeFor(db: Database, agent: AgentPort) {
  const dispatcher = new LocalDispatcher();
  const rt: JobRuntime = {
    db,
    dispatcher,
    ports: () => ({ agent }),
    engine: systemDeps,
    settings: { ...DEFAULT_SETTINGS },
    instanceId: "bench",
  };
  dispatcher.attach(rt);
  return { rt, dispatcher, services: { db, dispatcher, engine: systemDeps } };
}

const acting = { actor: LOCAL_OPERATOR, reason: "bench" };

/**
 * Time between consecutive agent calls of one loop: everything the runtime adds
 * per iteration. `warmup` first runs a loop of that many iterations through the
 * same runtime and database and discards it, so the figure is a warm server's
 * (JIT-compiled code, prepared statements, a WAL already at its working size).
 */
export async function measureOverhead(db: Database, iterations: number, onCall?: () => void, warmup = 0) {
  let stamps: number[] = [];
  const { dispatcher, services } = runtimeFor(
    db,
    instantAgent(() => {
      stamps.push(performance.now());
      onCall?.();
    }),
  );
  const run = async (n: number) => {
    stamps = [];
    await createLoop(
      services,
      { goal: "bench", agentKind: "instant", definition: {}, engineConfig: ENGINE_CONFIG(n), start: true },
      acting,
    );
    await dispatcher.idle();
    return stamps;
  };
  if (warmup > 0) await run(warmup);
  const calls = await run(iterations);
  const gaps = calls.slice(1).map((t, i) => t - calls[i]!);
  return { iterations: calls.length, p50: percentile(gaps, 50), p99: percentile(gaps, 99) };
}

/** Iterations per second with `loops` loops running at once in this process. */
export async function measureThroughput(
  db: Database,
  loops: number,
  iterationsEach: number,
  /** Around the timed run only, outside its clock (a CPU profile of the run without the loops' creation). */
  around?: { before(): Promise<void>; after(): Promise<void> },
) {
  let calls = 0;
  const { dispatcher, services } = runtimeFor(
    db,
    instantAgent(() => calls++),
  );
  const ids: string[] = [];
  for (let i = 0; i < loops; i++) {
    ids.push(
      (
        await createLoop(
          services,
          {
            goal: `bench ${i}`,
            agentKind: "instant",
            definition: {},
            engineConfig: ENGINE_CONFIG(iterationsEach),
            start: false,
          },
          acting,
        )
      ).id,
    );
  }
  await around?.before();
  const started = performance.now();
  const cpu = process.cpuUsage();
  await db.prisma.loop.updateMany({ where: { id: { in: ids } }, data: { status: "queued" } });
  for (const id of ids) dispatcher.dispatch(id);
  await dispatcher.idle();
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  await around?.after();
  // This process's CPU over the run (all its threads: the drivers' work is on the main thread).
  const cpuMs = (used.user + used.system) / 1000;
  return { loops, iterations: calls, seconds, perSecond: calls / seconds, cpuMsPerIteration: cpuMs / calls };
}

/** Iterations per second with N in-process workers claiming from one database. */
export async function measureWorkers(dbs: Database[], loops: number, iterationsEach: number) {
  let calls = 0;
  const agent = instantAgent(() => calls++);
  const { services } = runtimeFor(dbs[0]!, agent);
  for (let i = 0; i < loops; i++) {
    await createLoop(
      services,
      {
        goal: `bench ${i}`,
        agentKind: "instant",
        definition: {},
        engineConfig: ENGINE_CONFIG(iterationsEach),
        start: false,
      },
      acting,
    );
  }
  const started = performance.now();
  await dbs[0]!.prisma.loop.updateMany({ where: { status: "draft" }, data: { status: "queued" } });
  const workers = dbs.map((db, i) =>
    startWorker({
      db,
      ports: () => ({ agent }),
      settings: { ...DEFAULT_SETTINGS },
      concurrency: Math.ceil(loops / dbs.length),
      pollMs: 20,
      instanceId: `w${i}`,
    }),
  );
  const target = loops * iterationsEach;
  while (calls < target) await new Promise((r) => setTimeout(r, 5));
  for (;;) {
    const open = await dbs[0]!.prisma.loop.count({ where: { status: { in: ["queued", "running"] } } });
    if (open === 0) break;
    await new Promise((r) => setTimeout(r, 5));
  }
  const seconds = (performance.now() - started) / 1000;
  await Promise.all(workers.map((w) => w.stop()));
  return { workers: dbs.length, loops, iterations: calls, seconds, perSecond: calls / seconds };
}

/** Resident memory of a runtime process holding `loops` live loops (demo agents, paced). */
export async function measureLiveRss(
  db: Database,
  ports: import("../server/jobs/runtime-deps").PortsFactory,
  loops: number,
  seconds: number,
  /** Called at the end while every loop is still live (a heap snapshot). */
  atPeak?: () => void,
  /** Slices at once, as the app's RALPH_APP_CONCURRENCY (default 50; 0: no limit); the rest wait their turn. */
  concurrency = 50,
) {
  const dispatcher = new LocalDispatcher(concurrency > 0 ? new Semaphore(concurrency) : undefined);
  const rt: JobRuntime = {
    db,
    dispatcher,
    ports,
    engine: systemDeps,
    settings: { ...DEFAULT_SETTINGS },
    instanceId: "bench-rss",
  };
  dispatcher.attach(rt);
  const services = { db, dispatcher, engine: systemDeps };
  const before = process.memoryUsage().rss;
  for (let i = 0; i < loops; i++) {
    await createLoop(
      services,
      {
        goal: `Write a runbook for service ${i}`,
        agentKind: "demo",
        definition: {
          agent: { kind: "demo", seed: i, delayMs: 300 },
          scorers: [{ kind: "length", name: "length", min: 400 }],
        },
        engineConfig: {
          stop: { maxIterations: 1000, noProgressIterations: 0, maxConsecutiveFailures: 0 },
          pacing: { delayMs: 500 },
        },
        start: true,
      },
      acting,
    );
  }
  // Creating the loops already started their slices: the window's own progress is counted apart.
  const iterationsAtStart = await db.prisma.iteration.count();
  let peak = process.memoryUsage();
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    const m = process.memoryUsage();
    if (m.rss > peak.rss) peak = m;
    await new Promise((r) => setTimeout(r, 250));
  }
  atPeak?.();
  const mb = (n: number) => Math.round((n / 2 ** 20) * 10) / 10;
  const heapMb = process.memoryUsage().heapUsed / 2 ** 20;
  // Where the peak went: V8's heap (used / reserved), memory outside it (Buffers, native), and the rest
  // of the RSS (code, native allocations of the drivers, the allocator's free lists).
  const atPeakMb = {
    heapUsed: mb(peak.heapUsed),
    heapTotal: mb(peak.heapTotal),
    external: mb(peak.external),
    arrayBuffers: mb(peak.arrayBuffers),
    outsideHeap: mb(peak.rss - peak.heapTotal - peak.external),
  };
  const iterations = await db.prisma.iteration.count();
  // Slices that threw (a busy database under load): their loops wait for the sweeper, which this bench does not run.
  const failedSlices = dispatcher.errorCount;
  const activeSlices = dispatcher.activeCount;
  await dispatcher.stop();
  return {
    loops,
    iterations,
    iterationsInWindow: iterations - iterationsAtStart,
    rssMb: peak.rss / 2 ** 20,
    heapMb,
    baselineMb: before / 2 ** 20,
    atPeakMb,
    failedSlices,
    activeSlices,
  };
}

// What the step commit costs: through Prisma's interactive transaction, on the
// lean path (prepared statements over the driver), and with group commit when
// many loops commit at once. SQLite runs synchronous = FULL; every figure is a
// durable commit. On SQLite it also shows the floor: the same statements
// prepared on a bare better-sqlite3 connection in one immediate transaction.
// Standalone: `npx tsx bench/step-commit-bench.ts [--loops=200] [--steps=10]`.
import Sqlite from "better-sqlite3";
import { randomUUID } from "node:crypto";
import { execFileSync } from "node:child_process";
import { pathToFileURL } from "node:url";
import { encodeCheckpoint, runLoop } from "../server/engine";
import { checkpointScenarios, FakeClock } from "../test/checkpoint-scenarios";
import type { Database } from "../server/db/client";
import { openDatabase, SQLITE_PRAGMAS } from "../server/db/client";
import type { DatabaseTarget } from "../server/db/database-target";
import type { StepWrite } from "../server/db/step-write";
import { commitStepViaPrisma } from "../test/prisma-step-commit";
import { migrate } from "../server/db/migrations/migrator";
import { getEnv } from "../server/env";
import { LocalDispatcher } from "../server/jobs/local-dispatcher";
import { systemDeps } from "../server/jobs/system-deps";
import { createLoop } from "../server/loops/loop-create.service";
import { LOCAL_OPERATOR } from "../server/auth/actor";
import { createTempDatabase } from "../test/temp-database";
import { percentile } from "./runtime-bench";

// `--checkpoint=1|2`: the checkpoint of a reflecting loop after 60 iterations, stored as format 1 (whole)
// or format 2 (its parts already stored, as in a running loop); otherwise a 2.5 KB stand-in.
let STATE = JSON.stringify({ history: Array.from({ length: 20 }, (_, i) => ({ i, note: "x".repeat(100) })) });
const format = process.argv.find((a) => a.startsWith("--checkpoint="))?.slice(13);
if (format) {
  const clock = new FakeClock();
  const scenario = checkpointScenarios(60)[2]!;
  const result = await runLoop({
    ports: scenario.ports(clock),
    deps: clock,
    goal: scenario.goal,
    config: scenario.config,
  });
  const checkpoint = result.lastCheckpoint!;
  const stored = new Set(encodeCheckpoint(checkpoint, { sha256: clock.sha256, outputRow: "row" }).cites);
  STATE =
    format === "1"
      ? JSON.stringify(checkpoint)
      : encodeCheckpoint(checkpoint, { sha256: clock.sha256, outputRow: "row", stored }).state;
  console.log(`checkpoint format ${format}: ${STATE.length} characters a step`);
}
const OWNER = "bench-owner";

async function claimedLoops(db: Database, count: number) {
  const svc = { db, dispatcher: new LocalDispatcher(), engine: systemDeps };
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const loop = await createLoop(
      svc,
      { goal: "commit bench", agentKind: "command", definition: {}, engineConfig: {}, start: true },
      { actor: LOCAL_OPERATOR, reason: "bench" },
    );
    await db.loopStore.claim(loop.id, OWNER, new Date(), 3_600_000);
    ids.push(loop.id);
  }
  return ids;
}

/** A step as the runtime writes it: loop counters, iteration row, checkpoint, two events. */
function stepWrite(loopId: string, i: number): StepWrite {
  const now = new Date();
  return {
    loopId,
    fence: { owner: OWNER },
    loop: { iteration: i, status: "running", lastActivityAt: now },
    ended: false,
    iteration: {
      row: {
        id: randomUUID(),
        number: i,
        status: "succeeded",
        agentId: randomUUID(),
        input: "go",
        output: "answer",
        startedAt: now,
        finishedAt: now,
      },
      attempt: 1,
    },
    nextInflight: { number: i + 1, at: now },
    checkpoint: { id: randomUUID(), iteration: i, state: STATE, sha256: "0".repeat(64) },
    events: [
      { loopId, type: "iteration_started", actor: "system", payload: { iteration: i } },
      { loopId, type: "iteration_completed", actor: "system", payload: { iteration: i } },
    ],
    acks: [],
  };
}

type Commit = (db: Database, write: StepWrite) => Promise<unknown>;
const viaPrisma: Commit = (db, write) => commitStepViaPrisma(db.prisma, write);
const viaCommitStep: Commit = (db, write) => db.loopStore.commitStep(write);

/** One loop committing step after step: latency of one durable commit. */
async function sequential(db: Database, commit: Commit, commits: number) {
  const [loopId] = await claimedLoops(db, 1);
  const ms: number[] = [];
  for (let i = 1; i <= commits; i++) {
    const t = performance.now();
    await commit(db, stepWrite(loopId!, i));
    ms.push(performance.now() - t);
  }
  return { p50: percentile(ms, 50), p99: percentile(ms, 99) };
}

/** `loops` loops each committing `steps` steps back to back, all at once: steps per second. */
async function concurrent(db: Database, commit: Commit, loops: number, steps: number) {
  const ids = await claimedLoops(db, loops);
  const ms: number[] = [];
  const started = performance.now();
  await Promise.all(
    ids.map(async (id) => {
      for (let i = 1; i <= steps; i++) {
        const t = performance.now();
        await commit(db, stepWrite(id, i));
        ms.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { perSecond: (loops * steps) / seconds, p50: percentile(ms, 50), p99: percentile(ms, 99) };
}

/** The same statements on a bare better-sqlite3 connection (the floor for SQLite). */
async function rawSqlite(db: Database, file: string, commits: number) {
  const [rawLoop] = await claimedLoops(db, 1);
  const raw = new Sqlite(file);
  raw.exec(SQLITE_PRAGMAS);
  const updateLoop = raw.prepare(
    "UPDATE Loop SET iteration = ?, status = ?, lastActivityAt = ?, checkpointId = ?, inflightIteration = ?, inflightAttempt = 1, inflightStartedAt = ?, inflightAgent = NULL, version = version + 1, updatedAt = ? WHERE id = ? AND leaseOwner = ?",
  );
  const insertIteration = raw.prepare(
    "INSERT INTO Iteration (id, loopId, number, attempt, status, agentId, input, output, startedAt, finishedAt) VALUES (?, ?, ?, 1, 'succeeded', ?, 'go', 'answer', ?, ?)",
  );
  const insertCheckpoint = raw.prepare(
    "INSERT INTO Checkpoint (id, loopId, iteration, state, sha256, createdAt) VALUES (?, ?, ?, ?, ?, ?)",
  );
  const insertEvent = raw.prepare(
    "INSERT INTO LoopEvent (loopId, type, actor, payload, createdAt) VALUES (?, ?, 'system', ?, ?)",
  );
  const step = raw.transaction((i: number) => {
    const at = new Date().toISOString().replace("Z", "+00:00");
    const checkpointId = randomUUID();
    if (updateLoop.run(i, "running", at, checkpointId, i + 1, at, at, rawLoop, OWNER).changes !== 1)
      throw new Error("lease lost");
    insertIteration.run(randomUUID(), rawLoop, i, randomUUID(), at, at);
    insertCheckpoint.run(checkpointId, rawLoop, i, STATE, "0".repeat(64), at);
    insertEvent.run(rawLoop, "iteration_started", JSON.stringify({ iteration: i }), at);
    insertEvent.run(rawLoop, "iteration_completed", JSON.stringify({ iteration: i }), at);
  });
  const ms: number[] = [];
  try {
    for (let i = 1; i <= commits; i++) {
      const t = performance.now();
      step.immediate(i);
      ms.push(performance.now() - t);
      // Yield as the runtime would between steps.
      await new Promise((r) => setImmediate(r));
    }
  } finally {
    raw.close();
  }
  return { p50: percentile(ms, 50), p99: percentile(ms, 99) };
}

export interface StepCommitFigures {
  kind: string;
  commits: number;
  prisma: { p50: number; p99: number };
  lean: { p50: number; p99: number };
  raw: { p50: number; p99: number } | null;
  loops: number;
  steps: number;
  groupCommitMs: number;
  /** Steps per second with `loops` loops committing at once. */
  concurrent: {
    prisma: { perSecond: number; p50: number; p99: number };
    lean: { perSecond: number; p50: number; p99: number };
    grouped: { perSecond: number; p50: number; p99: number; writesPerTransaction: number };
  };
}

/**
 * `db` is open on `target`; the lean and grouped figures open their own
 * clients on it (group commit off, then on), one at a time.
 */
export async function measureStepCommit(
  db: Database,
  target: DatabaseTarget,
  options: { commits?: number; loops?: number; steps?: number; groupCommitMs?: number } = {},
): Promise<StepCommitFigures> {
  const commits = options.commits ?? 300;
  const loops = options.loops ?? 200;
  const steps = options.steps ?? 10;
  const groupCommitMs = options.groupCommitMs ?? 2;
  const withClient = async <T>(groupMs: number, fn: (d: Database) => Promise<T>) => {
    const d = openDatabase(target, { groupCommitMs: groupMs, poolSize: 20 });
    try {
      return await fn(d);
    } finally {
      await d.close();
    }
  };
  const prisma = await sequential(db, viaPrisma, commits);
  const lean = await withClient(0, (d) => sequential(d, viaCommitStep, commits));
  const raw = target.kind === "sqlite" ? await rawSqlite(db, target.file, commits) : null;
  // Through Prisma, hundreds of loops at once can exceed its transaction timeouts on a loaded machine.
  const concurrentPrisma = await concurrent(db, viaPrisma, loops, steps).catch((error: Error) => {
    console.error(`  through Prisma, ${loops} loops at once: ${error.message.split("\n")[0]}`);
    return { perSecond: NaN, p50: NaN, p99: NaN };
  });
  const concurrentLean = await withClient(0, (d) => concurrent(d, viaCommitStep, loops, steps));
  const grouped = await withClient(groupCommitMs, async (d) => {
    const figures = await concurrent(d, viaCommitStep, loops, steps);
    const stats = d.stepCommit!.stats;
    return { ...figures, writesPerTransaction: stats.writes / Math.max(1, stats.transactions) };
  });
  return {
    kind: target.kind,
    commits,
    prisma,
    lean,
    raw,
    loops,
    steps,
    groupCommitMs,
    concurrent: { prisma: concurrentPrisma, lean: concurrentLean, grouped },
  };
}

const fmt = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : "n/a");

export function printStepCommit(c: StepCommitFigures) {
  const lat = (x: { p50: number; p99: number }) => `p50 ${fmt(x.p50)}  p99 ${fmt(x.p99)}`;
  const rate = (x: { perSecond: number; p50: number; p99: number }) =>
    `${fmt(x.perSecond, 0).padStart(6)} steps/s  (commit ${lat(x)} ms)`;
  console.log("");
  console.log(`step commit, ${c.kind}${c.kind === "sqlite" ? ", synchronous = FULL" : ""} (durable commits)`);
  console.log(`  one loop, ${c.commits} commits (ms)`);
  console.log(`    through Prisma (interactive transaction)    ${lat(c.prisma)}`);
  console.log(`    lean path (prepared statements, alone)      ${lat(c.lean)}`);
  if (c.raw) console.log(`    floor: bare better-sqlite3, same statements ${lat(c.raw)}`);
  console.log(`  ${c.loops} loops committing at once, ${c.steps} steps each`);
  console.log(`    through Prisma                              ${rate(c.concurrent.prisma)}`);
  console.log(`    lean path, group commit off                 ${rate(c.concurrent.lean)}`);
  console.log(
    `    lean path, group commit ${c.groupCommitMs} ms               ${rate(c.concurrent.grouped)}, ${fmt(c.concurrent.grouped.writesPerTransaction, 1)} steps per transaction`,
  );
}

// Run directly: both databases, each on a scratch database of its own.
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const arg = (name: string, fallback: number) =>
    Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
  const only = process.argv.find((a) => a === "--sqlite" || a === "--postgresql")?.slice(2);
  console.log(`load: ${execFileSync("uptime", { encoding: "utf8" }).trim()}`);
  for (const kind of ["sqlite", "postgresql"] as const) {
    if (only && only !== kind) continue;
    const temp = await createTempDatabase(kind, getEnv().RALPH_PG_ADMIN_URL, "bench");
    await migrate(temp.target, process.cwd());
    const db = openDatabase(temp.target, { poolSize: 20 });
    try {
      printStepCommit(
        await measureStepCommit(db, temp.target, {
          commits: arg("commits", 300),
          loops: arg("loops", 200),
          steps: arg("steps", 10),
          groupCommitMs: arg("group-ms", 2),
        }),
      );
    } finally {
      await db.close();
      await temp.drop();
    }
  }
  console.log(`load: ${execFileSync("uptime", { encoding: "utf8" }).trim()}`);
  process.exit(0);
}

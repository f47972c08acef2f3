// What the step commit costs through Prisma, against the same statements as
// prepared better-sqlite3 statements in one immediate transaction: the size of
// the prize for a lean step commit (SQLite, synchronous = FULL, both durable).
import Sqlite from "better-sqlite3";
import { randomUUID } from "node:crypto";
import type { Database } from "../server/db/client";
import { SQLITE_PRAGMAS } from "../server/db/client";
import { claimLoop } from "../server/db/loop-lease.repo";
import { commitStep } from "../server/db/loop-steps.repo";
import { LocalDispatcher } from "../server/jobs/local-dispatcher";
import { systemDeps } from "../server/jobs/system-deps";
import { createLoop } from "../server/loops/loop-create.service";
import { LOCAL_OPERATOR } from "../server/auth/actor";
import { percentile } from "./runtime-bench";

const STATE = JSON.stringify({ history: Array.from({ length: 20 }, (_, i) => ({ i, note: "x".repeat(100) })) });

async function claimedLoop(db: Database) {
  const svc = { db, dispatcher: new LocalDispatcher(), engine: systemDeps };
  const loop = await createLoop(
    svc,
    { goal: "commit bench", agentKind: "command", definition: {}, engineConfig: {}, start: true },
    { actor: LOCAL_OPERATOR, reason: "bench" },
  );
  await claimLoop(db.prisma, loop.id, "bench-owner", new Date(), 3_600_000);
  return loop.id;
}

export async function measureStepCommit(db: Database, file: string, commits = 300) {
  const prismaMs: number[] = [];
  const prismaLoop = await claimedLoop(db);
  for (let i = 1; i <= commits; i++) {
    const now = new Date();
    const t = performance.now();
    await commitStep(db.prisma, {
      loopId: prismaLoop,
      fence: { owner: "bench-owner" },
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
        { loopId: prismaLoop, type: "iteration_started", actor: "system", payload: { iteration: i } },
        { loopId: prismaLoop, type: "iteration_completed", actor: "system", payload: { iteration: i } },
      ],
      acks: [],
    });
    prismaMs.push(performance.now() - t);
  }

  const rawLoop = await claimedLoop(db);
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
    const at = Date.now();
    const checkpointId = randomUUID();
    if (updateLoop.run(i, "running", at, checkpointId, i + 1, at, at, rawLoop, "bench-owner").changes !== 1)
      throw new Error("lease lost");
    insertIteration.run(randomUUID(), rawLoop, i, randomUUID(), at, at);
    insertCheckpoint.run(checkpointId, rawLoop, i, STATE, "0".repeat(64), at);
    insertEvent.run(rawLoop, "iteration_started", JSON.stringify({ iteration: i }), at);
    insertEvent.run(rawLoop, "iteration_completed", JSON.stringify({ iteration: i }), at);
  });
  const rawMs: number[] = [];
  try {
    for (let i = 1; i <= commits; i++) {
      const t = performance.now();
      step.immediate(i);
      rawMs.push(performance.now() - t);
      // Yield as the runtime would between steps.
      await new Promise((r) => setImmediate(r));
    }
  } finally {
    raw.close();
  }
  return {
    commits,
    prisma: { p50: percentile(prismaMs, 50), p99: percentile(prismaMs, 99) },
    raw: { p50: percentile(rawMs, 50), p99: percentile(rawMs, 99) },
  };
}

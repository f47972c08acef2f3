// Crash safety with real processes: workers are spawned, SIGKILLed, stopped
// (SIGSTOP) and raced against each other; the agent is a real CLI script.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { describeEachProvider } from "../../test/db-providers";
import { asOperator, waitFor } from "../../test/runtime-harness";
import {
  countingAgent,
  freezeOutsideWriteLock,
  readCalls,
  spawnWorker,
  stopWorker,
  type WorkerProcess,
} from "../../test/worker-process";
import { LocalDispatcher } from "./local-dispatcher";
import { systemDeps } from "./system-deps";
import { createLoopFromDefinition } from "../loops/loop-create.service";
import { loopDefinitionSchema } from "../loops/loop-definition";
import { expectLoopCostMatchesRows } from "../../test/spend-invariant";

describeEachProvider("crash safety", ({ db, kind, temp }) => {
  const workers: WorkerProcess[] = [];
  afterEach(async () => {
    for (const w of workers.splice(0)) await stopWorker(w, "SIGKILL");
  });
  // Loops are created without dispatching: only the worker processes run them.
  const services = () => ({ db: db(), dispatcher: new LocalDispatcher(), engine: systemDeps });

  /**
   * The counting agent, but its first call of iteration `hold` records the
   * call, then waits until `release` exists. The kill then lands where the
   * test says (every loop inside that call, everything before it committed),
   * not wherever a loaded machine's timing put it: a loop that committed
   * between the check and the kill had no iteration in flight to interrupt.
   */
  const heldAgent = (countFile: string, sleepMs: number, hold: number, release: string) => {
    const agent = countingAgent(countFile, sleepMs);
    const script = `if [ "$RALPH_ITERATION" = "${hold}" ] && [ ! -e "$RELEASE_FILE" ]; then
  echo "$RALPH_LOOP_ID $RALPH_ITERATION $RALPH_ATTEMPT $$" >> "$COUNT_FILE"
  while [ ! -e "$RELEASE_FILE" ]; do sleep 0.1; done
  exit 1
fi
exec "$0" "$@"`;
    return {
      ...agent,
      argv: ["/bin/sh", "-c", script, ...agent.argv],
      env: { ...agent.env, RELEASE_FILE: release },
    };
  };

  async function createLoops(
    count: number,
    countFile: string,
    sleepMs: number,
    maxIterations: number,
    held?: { iteration: number; release: string },
  ) {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const definition = loopDefinitionSchema.parse({
        goal: `crash loop ${i}`,
        agent: held ? heldAgent(countFile, sleepMs, held.iteration, held.release) : countingAgent(countFile, sleepMs),
        loop: {
          stop: { maxIterations, noProgressIterations: 0, maxConsecutiveFailures: 0 },
          health: { checkInterval: 0 },
          completion: { allowNoEvidence: true },
        },
      });
      ids.push((await createLoopFromDefinition(services(), definition, true, asOperator())).id);
    }
    return ids;
  }

  const allEnded = (ids: string[]) =>
    waitFor(
      () => db().prisma.loop.findMany({ where: { id: { in: ids } }, select: { status: true } }),
      (rows) => rows.every((r) => ["stopped", "completed", "failed"].includes(r.status)),
      90_000,
    );

  it("SIGKILL mid-iteration: every loop resumes and finishes, nothing is stored or counted twice", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ralph-crash-"));
    const countFile = join(dir, "calls.txt");
    const release = join(dir, "release");
    // Iteration 1 runs free (its commits share group-commit transactions); iteration 2's first call waits.
    const ids = await createLoops(20, countFile, 400, 3, { iteration: 2, release });
    // Group commit on, with a window wide enough that the 20 loops' steps share transactions.
    const grouped = { RALPH_GROUP_COMMIT_MS: "5" };
    const first = spawnWorker(temp().target, grouped);
    workers.push(first);
    await waitFor(
      async () => first.output(),
      (out) => out.includes("Ralph Control worker"),
      30_000,
    );
    expect(first.output()).toMatch(/group commit 5 ms/);
    // Wait until every loop has moved past an acknowledged step (its agent was called for iteration 2)
    // and has that iteration in flight, then kill -9. The held calls keep it so until the kill.
    const heldLoops = () =>
      new Set(
        readCalls(countFile)
          .filter((c) => c.iteration === 2)
          .map((c) => c.loopId),
      ).size;
    await waitFor(
      async () =>
        heldLoops() === 20 ? db().prisma.loop.count({ where: { id: { in: ids }, inflightIteration: 2 } }) : 0,
      (n) => n === 20,
      60_000,
    );
    first.child.kill("SIGKILL");
    await first.exited;
    writeFileSync(release, ""); // the next worker's calls run through
    // A loop calls its agent for iteration n+1 only once the commit of n resolved: those were acknowledged.
    const callsAtKill = readCalls(countFile);
    const acknowledged = callsAtKill.filter((c) =>
      callsAtKill.some((d) => d.loopId === c.loopId && d.iteration === c.iteration + 1),
    );
    expect(acknowledged.length).toBeGreaterThan(0);
    const durable = await db().prisma.iteration.findMany({
      where: { loopId: { in: ids }, status: { not: "interrupted" } },
      select: { id: true, loopId: true, number: true },
    });
    for (const a of acknowledged)
      expect(durable.some((r) => r.loopId === a.loopId && r.number === a.iteration)).toBe(true);

    // A lease lost to a starved heartbeat re-runs an iteration by design (one more interrupted row),
    // which is not what this test counts: the recovering worker's leases outlast any stall.
    const second = spawnWorker(temp().target, { ...grouped, RALPH_LEASE_MS: "8000", RALPH_HEARTBEAT_MS: "500" });
    workers.push(second);
    await allEnded(ids);
    expect(second.output()).toMatch(/group commit 5 ms/);

    const loops = await db().prisma.loop.findMany({ where: { id: { in: ids } } });
    const rows = await db().prisma.iteration.findMany({ where: { loopId: { in: ids } } });
    let interrupted = 0;
    for (const loop of loops) {
      expect(loop.status).toBe("stopped");
      expect(loop.stopType).toBe("max_iterations");
      const mine = rows.filter((r) => r.loopId === loop.id);
      const done = mine.filter((r) => r.status !== "interrupted");
      // Each iteration number is stored once as run, plus interrupted attempts.
      expect(done.map((r) => r.number).sort()).toEqual([1, 2, 3]);
      const broken = mine.filter((r) => r.status === "interrupted");
      interrupted += broken.length;
      for (const b of broken) expect(done.some((d) => d.number === b.number && d.attempt > b.attempt)).toBe(true);
      // Cost and tokens: exactly what the committed iterations report, plus what a
      // killed agent had already reported (the kill can land after its answer,
      // before its step committed: that spend is real and counted once).
      const crashedCost = broken.reduce((s, r) => s + r.costUsd, 0);
      expect(loop.costUsd).toBeCloseTo(done.reduce((s, r) => s + r.costUsd, 0) + crashedCost, 10);
      expect(loop.costUsd).toBeCloseTo(0.03 + crashedCost, 10);
      expect(loop.tokensIn).toBe(300 + broken.reduce((s, r) => s + r.tokensIn, 0));
      // Issue 32: the loop's cost is the sum of its rows (checked by the shared helper the chaos tests use).
      await expectLoopCostMatchesRows(db().prisma, loop.id);
    }
    // One per loop: the held iteration 2 each had in flight at the kill.
    expect(interrupted).toBe(20);
    expect(rows.filter((r) => r.status === "interrupted").every((r) => r.number === 2)).toBe(true);
    // What was acknowledged before the kill is still there, the same row, and its agent never ran again.
    const finalIds = new Set(rows.map((r) => r.id));
    for (const r of durable) expect(finalIds.has(r.id)).toBe(true);
    const calls = readCalls(countFile);
    for (const a of acknowledged)
      expect(calls.filter((c) => c.loopId === a.loopId && c.iteration === a.iteration)).toHaveLength(1);
  }, 120_000);

  it("a worker that stops heartbeating loses its loops, and cannot write when it comes back", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ralph-lease-"));
    const countFile = join(dir, "calls.txt");
    const [id] = await createLoops(1, countFile, 3_000, 1);
    const stale = spawnWorker(temp().target);
    workers.push(stale);
    // The stale worker's agent is running (it recorded its call) when the worker freezes.
    await waitFor(
      async () => readCalls(countFile).length,
      (n) => n === 1,
      30_000,
    );
    const staleOwner = (await db().prisma.loop.findUniqueOrThrow({ where: { id: id! } })).leaseOwner;
    await freezeOutsideWriteLock(stale, temp().target); // frozen: no heartbeats, no writes

    const fresh = spawnWorker(temp().target);
    workers.push(fresh);
    await waitFor(
      () => db().prisma.loop.findUniqueOrThrow({ where: { id: id! } }),
      (l) => l.leaseOwner !== null && l.leaseOwner !== staleOwner,
      30_000,
    );
    await allEnded([id!]);
    stale.child.kill("SIGCONT"); // it wakes up with a finished agent call and tries to commit
    await new Promise((r) => setTimeout(r, 4_000));

    // Both agents ran (the stale one finished its call), but only one result was stored.
    expect(readCalls(countFile)).toHaveLength(2);
    const rows = await db().prisma.iteration.findMany({ where: { loopId: id! } });
    expect(rows.filter((r) => r.status !== "interrupted")).toHaveLength(1);
    const loop = await db().prisma.loop.findUniqueOrThrow({ where: { id: id! } });
    // Issue 32: what the stale worker's agent reported, if it got to read it, is counted too (on its
    // interrupted row), never more: one stored result plus at most the stale call.
    expect([0.01, 0.02].map((c) => Math.abs(loop.costUsd - c) < 1e-9)).toContain(true);
    await expectLoopCostMatchesRows(db().prisma, id!);
    expect(loop.leaseOwner).toBeNull();
  }, 120_000);

  it.runIf(kind === "postgresql")(
    "two workers race over 50 loops: every iteration runs exactly once",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "ralph-race-"));
      const countFile = join(dir, "calls.txt");
      const ids = await createLoops(50, countFile, 0, 3);
      // Leases long enough that 50 sandboxed agent processes starting at once on 2 cores cannot starve a
      // heartbeat past half the lease (where the keeper gives the attempt up): a lost lease re-runs an
      // iteration by design, which is not what this test is about. 8 s was not enough on this machine
      // (8-25 attempts given up before their agent started, 3 runs of 3, the landed commit too): 20 s.
      // Crashes and frozen workers, with short leases, are the tests above.
      const racer = { RALPH_WORKER_CONCURRENCY: "25", RALPH_LEASE_MS: "20000", RALPH_HEARTBEAT_MS: "500" };
      workers.push(spawnWorker(temp().target, racer));
      workers.push(spawnWorker(temp().target, racer));
      await allEnded(ids);
      const calls = readCalls(countFile);
      expect(calls).toHaveLength(150);
      const keys = new Set(calls.map((c) => `${c.loopId}:${c.iteration}`));
      expect(keys.size).toBe(150);
      const pids = new Set(calls.map((c) => c.pid));
      expect(pids.size).toBe(150);
      const rows = await db().prisma.iteration.count({ where: { loopId: { in: ids } } });
      expect(rows).toBe(150);
    },
    120_000,
  );
});

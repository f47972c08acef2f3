// Every dollar counted (issue 32), on SQLite and PostgreSQL: an agent that
// answers while its runtime is frozen past its lease. Worker A launches a real
// CLI agent and is SIGSTOPped; the agent prints its cost and exits; worker B
// claims the loop, records A's attempt as interrupted (A never got to store the
// report) and runs the iteration again. A wakes with the agent's report in hand
// and its step commit refused: the spend must still reach the loop, once.
import { mkdirSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { overlapAgentLoop, readAgentRuns } from "../../test/agent-overlap";
import { describeEachProvider } from "../../test/db-providers";
import { asOperator, waitFor } from "../../test/runtime-harness";
import { expectLoopCostMatchesRows } from "../../test/spend-invariant";
import { freezeOutsideWriteLock, spawnWorker, stopWorker, type WorkerProcess } from "../../test/worker-process";
import { createLoopFromDefinition } from "../loops/loop-create.service";
import { LocalDispatcher } from "./local-dispatcher";
import { systemDeps } from "./system-deps";

describeEachProvider("stranded spend", ({ db, temp }) => {
  const workers: WorkerProcess[] = [];
  afterEach(async () => {
    for (const w of workers.splice(0)) {
      w.child.kill("SIGCONT");
      await stopWorker(w, "SIGKILL");
    }
  });

  it("an agent's cost reported while its runtime was frozen past its lease is on the loop, once", async () => {
    const agentDir = join(mkdtempSync(join(tmpdir(), "ralph-stranded-")), "agents");
    mkdirSync(agentDir);
    const services = { db: db(), dispatcher: new LocalDispatcher(), engine: systemDeps };
    const definition = overlapAgentLoop("count what the late agent spent", agentDir, 1000, 2);
    const { id } = await createLoopFromDefinition(services, definition, true, asOperator());
    // Worker A (a 2 s lease) starts iteration 1's agent; then it is frozen.
    const a = spawnWorker(temp().target);
    workers.push(a);
    await waitFor(
      () => Promise.resolve(readAgentRuns(agentDir)),
      (runs) => runs.length === 1,
      30_000,
    );
    await freezeOutsideWriteLock(a, temp().target);
    // The agent answers (its cost on stdout) while A cannot read it.
    await waitFor(
      () => Promise.resolve(readAgentRuns(agentDir)),
      (runs) => runs[0]!.ended,
      10_000,
    );
    // Worker B takes the loop over once A's lease ran out, and records A's attempt as interrupted.
    const b = spawnWorker(temp().target);
    workers.push(b);
    await waitFor(
      () => db().prisma.iteration.findMany({ where: { loopId: id, status: "interrupted" } }),
      (rows) => rows.length === 1,
      30_000,
    );
    // A wakes with the report in hand; its commit is refused.
    a.child.kill("SIGCONT");
    const loop = await waitFor(
      () => db().prisma.loop.findUniqueOrThrow({ where: { id } }),
      (l) => ["stopped", "completed", "failed"].includes(l.status),
      60_000,
    );
    // Whatever A stores lands within a moment of waking; B may already have ended the loop.
    await new Promise((r) => setTimeout(r, 1_500));
    const runs = readAgentRuns(agentDir);
    // A's iteration 1, B's iteration 1 again, B's iteration 2: each printed $0.125.
    expect(runs.filter((r) => r.ended)).toHaveLength(3);
    const reported = runs.filter((r) => r.ended).length * 0.125;
    expect(loop.status).toBe("stopped");
    const ledger = await expectLoopCostMatchesRows(db().prisma, id);
    expect(ledger.recordedUsd).toBeCloseTo(reported, 10);
    expect(ledger.interruptedUsd).toBeCloseTo(0.125, 10);
    // Nothing is left for a later safe point to count again.
    expect(await db().prisma.controlRequest.count({ where: { loopId: id, status: "pending" } })).toBe(0);
  }, 120_000);

  it("an agent's cost printed while its runtime was frozen, the runtime then killed, is counted by the next owner", async () => {
    const agentDir = join(mkdtempSync(join(tmpdir(), "ralph-spooled-")), "agents");
    mkdirSync(agentDir);
    // Workers on one host share the data folder, where a dead worker's spawn helper spools what it held.
    const dataDir = mkdtempSync(join(tmpdir(), "ralph-spool-data-"));
    const services = { db: db(), dispatcher: new LocalDispatcher(), engine: systemDeps };
    const definition = overlapAgentLoop("count what the killed runtime's agent spent", agentDir, 1000, 2);
    const { id } = await createLoopFromDefinition(services, definition, true, asOperator());
    const a = spawnWorker(temp().target, { RALPH_DATA_DIR: dataDir });
    workers.push(a);
    await waitFor(
      () => Promise.resolve(readAgentRuns(agentDir)),
      (runs) => runs.length === 1,
      30_000,
    );
    // A freezes while its agent runs; the agent prints its cost and exits (the spawn helper reads it).
    await freezeOutsideWriteLock(a, temp().target);
    await waitFor(
      () => Promise.resolve(readAgentRuns(agentDir)),
      (runs) => runs[0]!.ended,
      10_000,
    );
    await new Promise((r) => setTimeout(r, 300));
    // A wakes and dies at once: it never reads the report, let alone stores it.
    a.child.kill("SIGCONT");
    a.child.kill("SIGKILL");
    await a.exited;
    const b = spawnWorker(temp().target, { RALPH_DATA_DIR: dataDir });
    workers.push(b);
    const loop = await waitFor(
      () => db().prisma.loop.findUniqueOrThrow({ where: { id } }),
      (l) => ["stopped", "completed", "failed"].includes(l.status),
      60_000,
    );
    const runs = readAgentRuns(agentDir).filter((r) => r.ended);
    // A's iteration 1, B's iteration 1 again, B's iteration 2: each printed $0.125.
    expect(runs).toHaveLength(3);
    expect(loop.status).toBe("stopped");
    const ledger = await expectLoopCostMatchesRows(db().prisma, id);
    expect(ledger.recordedUsd).toBeCloseTo(runs.length * 0.125, 10);
    expect(ledger.interruptedUsd).toBeCloseTo(0.125, 10);
    expect(await db().prisma.controlRequest.count({ where: { loopId: id, status: "pending" } })).toBe(0);
    // Counted once, from the spool, and gone.
    const records = await db().prisma.loopEvent.findMany({ where: { loopId: id, type: "spend_recorded" } });
    expect(records.map((e) => e.payload as { source?: string; costUsd?: number } | null)).toEqual([
      expect.objectContaining({ source: "spool", costUsd: 0.125, number: 1, attempt: 1 }),
    ]);
    expect(readdirSync(join(dataDir, "agent-spool", id))).toEqual([]);
  }, 120_000);
});

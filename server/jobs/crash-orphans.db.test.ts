// No orphans, with real workers and a real sandboxed agent: kill -9 of the
// worker's whole process group while a 60 s agent runs leaves no agent
// process of that loop within 2 s; a new worker runs the iteration once
// more and counts what the killed agent reported spending. A worker that
// froze instead (SIGSTOP: nothing dies) has its agent killed by the next
// owner before the iteration runs again, so the two never overlap.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { describeEachProvider } from "../../test/db-providers";
import { asOperator, waitFor } from "../../test/runtime-harness";
import { freezeOutsideWriteLock, spawnWorker, stopWorker, type WorkerProcess } from "../../test/worker-process";
import { environHas, liveProcesses } from "../agents/process-identity";
import { createLoopFromDefinition } from "../loops/loop-create.service";
import { loopDefinitionSchema } from "../loops/loop-definition";
import { LocalDispatcher } from "./local-dispatcher";
import { systemDeps } from "./system-deps";

/**
 * The first start reports its spend, starts a grandchild and works for 60 s;
 * later starts finish at once. Every start is logged in the workspace.
 */
const AGENT = `first=yes; [ -s calls.txt ] && first=no
echo "$RALPH_ITERATION $(date +%s%N)" >> calls.txt
if [ "$first" = yes ]; then
  echo '{"usage":{"input":500,"output":100,"cache":0},"cost":0.25}'
  sleep 60 &
  wait
fi
echo "iteration $RALPH_ITERATION done"
echo '{"usage":{"input":100,"output":20,"cache":0},"cost":0.01}'`;

/**
 * For the worker that takes the loop over: a lease lost to a heartbeat starved
 * on a loaded machine re-runs the iteration by design (one more interrupted
 * row), which is not what these tests count. The first worker keeps the short
 * default lease, so the takeover still comes quickly.
 */
const TAKEOVER = { RALPH_LEASE_MS: "8000", RALPH_HEARTBEAT_MS: "500" };

const agentProcesses = (loopId: string) =>
  liveProcesses()
    .filter((p) => environHas(p.pid, `RALPH_LOOP_ID=${loopId}`))
    .map((p) => p.pid);

describeEachProvider("no orphan agents after a crash", ({ db, temp }) => {
  const workers: WorkerProcess[] = [];
  afterEach(async () => {
    for (const w of workers.splice(0)) {
      if (w.child.pid && w.child.exitCode === null && w.child.signalCode === null) {
        try {
          process.kill(-w.child.pid, "SIGKILL");
        } catch {
          await stopWorker(w, "SIGKILL");
        }
      }
      await w.exited;
    }
  });

  async function createLoop(workspace: string) {
    const definition = loopDefinitionSchema.parse({
      goal: "outlive nothing",
      workspace,
      // Sandboxed, as by default: the agent script is inline, its log in its workspace.
      agent: { kind: "command", argv: ["/bin/sh", "-c", AGENT], timeoutSeconds: 120, killGraceMs: 500 },
      loop: {
        stop: { maxIterations: 1, noProgressIterations: 0, maxConsecutiveFailures: 0 },
        health: { checkInterval: 0 },
        completion: { allowNoEvidence: true },
      },
    });
    const services = { db: db(), dispatcher: new LocalDispatcher(), engine: systemDeps };
    return (await createLoopFromDefinition(services, definition, true, asOperator())).id;
  }

  const calls = (workspace: string) =>
    readFileSync(join(workspace, "calls.txt"), "utf8")
      .trim()
      .split("\n")
      .map((l) => l.split(" ").map(Number) as [number, number]);

  const inflightSpend = (id: string) =>
    waitFor(
      () => db().prisma.loop.findUniqueOrThrow({ where: { id } }),
      (l) => (l.inflightAgent as { spend?: { costUsd: number } } | null)?.spend?.costUsd === 0.25,
      30_000,
    );

  const ended = (id: string) =>
    waitFor(
      () => db().prisma.loop.findUniqueOrThrow({ where: { id } }),
      (l) => ["stopped", "completed", "failed"].includes(l.status),
      60_000,
    );

  async function expectRanOnceMore(id: string, workspace: string) {
    const loop = await ended(id);
    const rows = await db().prisma.iteration.findMany({ where: { loopId: id }, orderBy: { attempt: "asc" } });
    expect(rows.map((r) => [r.number, r.attempt, r.status])).toEqual([
      [1, 1, "interrupted"],
      [1, 2, "succeeded"],
    ]);
    // The killed attempt's reported spend is on its row and in the loop's totals.
    expect(rows[0]!.costUsd).toBeCloseTo(0.25, 10);
    expect(rows[0]!.tokensIn).toBe(500);
    expect(loop.costUsd).toBeCloseTo(0.26, 10);
    expect(loop.tokensIn).toBe(600);
    // Two starts of iteration 1: the killed one and the re-run, nothing more.
    expect(calls(workspace).map(([n]) => n)).toEqual([1, 1]);
  }

  it("kill -9 of the worker's process group: no agent process within 2 s; the iteration runs once more, spend counted", async () => {
    const workspace = mkdtempSync(join(tmpdir(), "ralph-orphan-ws-"));
    const id = await createLoop(workspace);
    const first = spawnWorker(temp().target, {}, { detached: true });
    workers.push(first);
    await inflightSpend(id);
    await waitFor(
      async () => agentProcesses(id).length,
      (n) => n >= 3, // bubblewrap, the shell, the sleep
      10_000,
    );
    const killedAt = Date.now();
    process.kill(-first.child.pid!, "SIGKILL");
    await waitFor(
      async () => agentProcesses(id).length,
      (n) => n === 0,
      2_000,
    );
    console.info(
      `[${temp().target.kind}] agent processes gone ${Date.now() - killedAt} ms after kill -9 of the worker's group`,
    );
    await first.exited;

    const second = spawnWorker(temp().target, TAKEOVER);
    workers.push(second);
    await expectRanOnceMore(id, workspace);
  }, 120_000);

  it("a frozen worker's agent is killed by the next owner before the iteration runs again", async () => {
    const workspace = mkdtempSync(join(tmpdir(), "ralph-orphan-ws-"));
    const id = await createLoop(workspace);
    const frozen = spawnWorker(temp().target, {}, { detached: true });
    workers.push(frozen);
    const loop = await inflightSpend(id);
    const marker = (loop.inflightAgent as { group: { marker: string } }).group.marker;
    await freezeOutsideWriteLock(frozen, temp().target); // alive, holding its lifeline: only the next owner can end its agent
    expect(agentProcesses(id).length).toBeGreaterThanOrEqual(3);

    const fresh = spawnWorker(temp().target, TAKEOVER);
    workers.push(fresh);
    await expectRanOnceMore(id, workspace);
    // Attempt 2 started after every process of attempt 1 was gone: it ran once, alone.
    expect(liveProcesses().filter((p) => environHas(p.pid, marker))).toEqual([]);
    frozen.child.kill("SIGCONT");
  }, 120_000);
});

// Checkpoints in format 2 restore exactly: a loop stepped and committed as the
// runtime does (lean step commit, parts stored once, the last output cited by
// its row), its process gone without releasing anything, restores on a fresh
// connection to the very state it had; and a format-1 row still restores.
import { expect, it } from "vitest";
import { describeEachProvider } from "../../test/db-providers";
import { checkpointScenarios, FakeClock } from "../../test/checkpoint-scenarios";
import { asOperator } from "../../test/runtime-harness";
import { buildCheckpoint, step, type LoopSnapshot } from "../engine";
import { openDatabase, type Database } from "../db/client";
import { createLoop } from "../loops/loop-create.service";
import { loadCurrentSnapshot, readStoredCheckpoint } from "../loops/loop-snapshot";
import { checkpointRow, iterationRow, loopPatch, outputRowFor } from "../loops/step-rows";
import { LocalDispatcher } from "./local-dispatcher";
import { systemDeps } from "./system-deps";

/** What a restore gives back for a snapshot that was stored (restoreFromCheckpoint's two resets). */
const asRestored = (s: LoopSnapshot) => ({ ...s, health: { ...s.health, runStartedAt: null } });

// Checkpoint ids are UUIDv7s of the fake clock: each loop gets a clock of its own.
let clocks = 0;
const newClock = () => new FakeClock(Date.UTC(2026, 0, 1) + ++clocks * 86_400_000, clocks);

describeEachProvider("checkpoint restore (format 2)", ({ db, kind, temp }) => {
  async function newLoop(scenario: ReturnType<typeof checkpointScenarios>[number]) {
    const svc = { db: db(), dispatcher: new LocalDispatcher(), engine: systemDeps };
    const { id } = await createLoop(
      svc,
      { goal: scenario.goal, agentKind: "scripted", definition: {}, engineConfig: scenario.config, start: true },
      asOperator(),
    );
    return id;
  }

  /** Steps the loop `count` times on `database`, committing each step as the slice runner does. */
  async function runSteps(database: Database, loopId: string, scenarioIndex: number, count: number, clock: FakeClock) {
    const owner = `test-${kind}-${clock.now()}`;
    // A lease that runs out at once: a runtime that dies holding it leaves the loop to the next one.
    expect(await database.loopStore.claim(loopId, owner, new Date(), 1)).not.toBeNull();
    const stored = await readStoredCheckpoint(
      database.loopStore,
      (await database.loopStore.currentCheckpoint(loopId))!,
    );
    let { snapshot, outputRow } = stored;
    const parts = stored.parts;
    const ports = checkpointScenarios(count)[scenarioIndex]!.ports(clock);
    for (let i = 0; i < count; i++) {
      const outcome = await step(snapshot, ports, clock, {});
      const iteration = outcome.iteration;
      const cite = iteration ? outputRowFor(iteration.record, outcome.snapshot) : outputRow;
      const checkpoint = checkpointRow(iteration?.checkpoint ?? buildCheckpoint(outcome.snapshot, clock), {
        sha256: clock.sha256,
        outputRow: cite,
        stored: parts,
      });
      await database.loopStore.commitStep({
        loopId,
        fence: { owner },
        loop: loopPatch(outcome.snapshot, outcome.decision, new Date()),
        ended: outcome.snapshot.halt !== null,
        iteration: iteration ? { row: iterationRow(iteration.record), attempt: 1 } : undefined,
        checkpoint: checkpoint.row,
        events: [],
        acks: [],
      });
      outputRow = cite;
      for (const hash of checkpoint.cites) parts.add(hash);
      snapshot = outcome.snapshot;
    }
    return snapshot;
  }

  it.each([
    ["reflection history + verifier", 2],
    ["long outputs", 3],
    ["command agent with test evidence", 1],
    ["handoff summaries", 4],
  ] as const)(
    "%s: killed after 8 steps, the loop restores on a new connection to the state it had",
    async (_name, index) => {
      const scenario = checkpointScenarios(30)[index]!;
      const id = await newLoop(scenario);
      const clock = newClock();
      // The "process" that dies: its own connection, closed with the lease still held.
      const doomed = openDatabase(temp().target);
      const before = await runSteps(doomed, id, index, 8, clock);
      await doomed.close();

      const restored = await loadCurrentSnapshot(db().loopStore, id);
      expect(restored).toEqual(asRestored(JSON.parse(JSON.stringify(before)) as LoopSnapshot));
      expect(restored!.state.iteration).toBe(8);
      expect(restored!.last.output).toBe(before.last.output);

      // The stored rows: the output is not in the checkpoint, and each part is stored once.
      const rows = await db().prisma.checkpoint.findMany({ where: { loopId: id } });
      const latest = rows.find((r) => r.id === restored!.last.checkpointId)!;
      expect(latest.state.length).toBeLessThan(JSON.stringify(buildCheckpoint(before, clock)).length);
      expect(JSON.parse(latest.state).output?.row).toBe(`${id}:8:${before.last.agentId}`);
      const parts = await db().prisma.checkpointPart.findMany({ where: { loopId: id } });
      const cited = rows.flatMap((r) => (JSON.parse(r.state).parts as [unknown, string][]).map(([, h]) => h));
      expect(parts.length).toBeLessThan(cited.length);
      expect(new Set(parts.map((p) => p.hash)).size).toBe(parts.length);

      // The loop goes on from there, on the new connection, and restores again.
      const after = await runSteps(db(), id, index, 3, clock);
      expect(await loadCurrentSnapshot(db().loopStore, id)).toEqual(
        asRestored(JSON.parse(JSON.stringify(after)) as LoopSnapshot),
      );
      expect(after.state.iteration).toBe(11);
    },
  );

  it("a format-1 checkpoint already in the database still restores, and the next one is format 2", async () => {
    const scenario = checkpointScenarios(10)[0]!;
    const id = await newLoop(scenario);
    const clock = newClock();
    const snapshot = await runSteps(db(), id, 0, 2, clock);
    // Written as the release before format 2 wrote it: the whole checkpoint as JSON, no parts.
    const old = buildCheckpoint(snapshot, clock);
    const loop = await db().prisma.loop.findUniqueOrThrow({ where: { id } });
    await db().prisma.checkpoint.create({
      data: { id: old.id, loopId: id, iteration: 2, state: JSON.stringify(old), sha256: old.hash },
    });
    await db().prisma.loop.update({
      where: { id },
      data: { checkpointId: old.id, leaseOwner: null, version: loop.version + 1 },
    });
    expect(JSON.parse((await db().loopStore.currentCheckpoint(id))!.state).format).toBeUndefined();
    const restored = await loadCurrentSnapshot(db().loopStore, id);
    expect(restored).toEqual(
      asRestored({
        ...(JSON.parse(JSON.stringify(snapshot)) as LoopSnapshot),
        last: { ...snapshot.last, checkpointId: old.id },
      }),
    );

    const next = await runSteps(db(), id, 0, 1, clock);
    const row = (await db().loopStore.currentCheckpoint(id))!;
    expect(JSON.parse(row.state).format).toBe(2);
    expect(await loadCurrentSnapshot(db().loopStore, id)).toEqual(
      asRestored(JSON.parse(JSON.stringify(next)) as LoopSnapshot),
    );
  });

  it("a part that went missing fails the restore instead of resuming from partial state", async () => {
    const scenario = checkpointScenarios(10)[2]!;
    const id = await newLoop(scenario);
    await runSteps(db(), id, 2, 3, newClock());
    await db().prisma.checkpointPart.deleteMany({ where: { loopId: id } });
    await expect(loadCurrentSnapshot(db().loopStore, id)).rejects.toThrow(/part .* is missing/);
  });
});

// The iteration in flight, live: a real agent process that prints slowly, one
// that floods and one that hangs silent, run by the real runtime on both
// databases. What it prints is readable while it runs, health events are
// stored when they happen (not at the iteration's end, and not twice), the
// live rows stay under their rolling cap and are gone once the iteration is.
import { afterAll, afterEach, expect, it } from "vitest";
import { describeEachProvider } from "../../test/db-providers";
import { asOperator, createHarness, waitFor, type Harness } from "../../test/runtime-harness";
import { fixture, tempRoot, testDeps } from "../agents/fixtures/harness";
import { createCommandAgent } from "../agents/command.executor";
import { commandAgentSchema } from "../agents/command.schema";
import { createLoop } from "../loops/loop-create.service";
import { getLiveIteration } from "../loops/live-iteration.service";
import { LIVE_EVENT, LIVE_ROWS_KEPT } from "../live-output";

const tmp = tempRoot("ralph-live-");
afterAll(() => tmp.cleanup());

const commandAgent = (argv: string[], env: Record<string, string> = {}) => {
  const agent = createCommandAgent(
    commandAgentSchema.parse({ kind: "command", argv, env, timeoutSeconds: 60 }),
    testDeps(tmp.root),
  );
  return (req: Parameters<typeof agent.run>[0]) => agent.run(req);
};

describeEachProvider("the live iteration", ({ db }) => {
  let h: Harness | undefined;
  afterEach(async () => h?.stop());

  const start = (agentKind: string, loop: object = {}) =>
    createLoop(
      h!.services,
      {
        goal: "show your work live",
        agentKind,
        definition: { agent: { kind: agentKind } },
        engineConfig: { stop: { maxIterations: 1, noProgressIterations: 0 }, ...loop },
        start: true,
      },
      asOperator(),
    );
  const liveRows = (loopId: string) => db().prisma.loopEvent.count({ where: { loopId, type: LIVE_EVENT } });
  const iterationRows = (loopId: string) => db().prisma.iteration.count({ where: { loopId } });

  it("a slow agent's output, heartbeat and phase are readable while it runs, and gone after", async () => {
    h = createHarness(db(), { slow: commandAgent(["/bin/sh", fixture("slow-printer.sh")], { LINES: "25" }) });
    const { id } = await start("slow");
    const view = await waitFor(
      () => getLiveIteration(db(), id),
      (v) => (v?.lines.length ?? 0) >= 3,
      20_000,
    );
    // Still in flight: the iteration is not stored yet.
    expect(await iterationRows(id)).toBe(0);
    expect(view).toMatchObject({ iteration: 1, phase: "agent", health: "healthy" });
    expect(view!.lines[0]).toBe("working on step 1");
    expect(view!.heartbeatAt).not.toBeNull();
    expect(view!.outputAt).toBeGreaterThanOrEqual(view!.startedAt);
    // Later batches add to the tail in order.
    const later = await waitFor(
      () => getLiveIteration(db(), id),
      (v) => (v?.lines.length ?? 0) > view!.lines.length,
      20_000,
    );
    expect(later!.lines.slice(0, view!.lines.length)).toEqual(view!.lines);

    await h.dispatcher.idle();
    expect(h.dispatcher.errors).toEqual([]);
    expect(await iterationRows(id)).toBe(1);
    expect(await liveRows(id)).toBe(0);
    expect(await getLiveIteration(db(), id)).toBeNull();
  }, 60_000);

  it("a silent agent is nudged and escalated while it hangs; each health event is stored once", async () => {
    h = createHarness(db(), { silent: commandAgent(["/bin/sh", fixture("silent-hang.sh")]) });
    const { id } = await start("silent", {
      health: { stuckAfter: 1, nudgeInterval: 1, nudgesBeforeEscalation: 1, escalationTimeout: 1, checkInterval: 0.25 },
    });
    const nudged = await waitFor(
      () => db().prisma.loopEvent.findMany({ where: { loopId: id, type: "intervention" }, orderBy: { id: "asc" } }),
      (events) => events.length >= 1,
      20_000,
    );
    // The nudge is stored before the iteration ends.
    expect(await iterationRows(id)).toBe(0);
    expect(nudged[0]!.payload).toMatchObject({ level: "nudge", iteration: 1 });
    const live = await waitFor(
      () => getLiveIteration(db(), id),
      (v) => (v?.interventions.length ?? 0) >= 1,
      20_000,
    );
    expect(live!.health).toBe("stuck");
    expect(live!.lines).toEqual(["starting, then silence"]);

    await h.dispatcher.idle();
    expect(await iterationRows(id)).toBe(1);
    const stored = await db().prisma.loopEvent.findMany({
      where: { loopId: id, type: { in: ["intervention", "health_changed"] } },
    });
    const keys = stored.map((e) => JSON.stringify(e.payload));
    expect(new Set(keys).size).toBe(keys.length);
    expect(stored.map((e) => (e.payload as { level?: string }).level)).toEqual(
      expect.arrayContaining(["nudge", "escalate", "terminate"]),
    );
    expect(await liveRows(id)).toBe(0);
  }, 60_000);

  it("a flood stays under the rolling cap and the tail keeps the newest lines", async () => {
    h = createHarness(db(), {
      flood: commandAgent([
        "/bin/sh",
        "-c",
        'i=0; while [ $i -lt 40000 ]; do echo "line $i"; i=$((i+1)); done; sleep 2',
      ]),
    });
    const { id } = await start("flood");
    let most = 0;
    const view = await waitFor(
      async () => {
        most = Math.max(most, await liveRows(id));
        return getLiveIteration(db(), id);
      },
      (v) => (v?.totalLines ?? 0) >= 40_000,
      40_000,
    );
    expect(view!.lines.length).toBeLessThanOrEqual(200);
    expect(view!.lines.at(-1)).toBe("line 39999");
    expect(view!.skippedLines).toBe(view!.totalLines - view!.lines.length);
    await h.dispatcher.idle();
    expect(most).toBeLessThanOrEqual(LIVE_ROWS_KEPT + 10);
    expect(await liveRows(id)).toBe(0);
  }, 60_000);
});

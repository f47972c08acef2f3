// A fast loop raises the runaway alarm on the server; with the policy
// `alarms.runaway.action: "pause"` the alarm check stores an interrupt request
// and the runtime pauses the loop at its next safe point, with audit events
// that say who (the alarm) and why. A loop whose policy only alerts keeps going.
import { afterEach, expect, it } from "vitest";
import { describeEachProvider } from "../../test/db-providers";
import { asOperator, createHarness, waitFor, type Harness } from "../../test/runtime-harness";
import { createLoop } from "../loops/loop-create.service";
import { requestControl } from "../loops/loop-controls.service";
import { ALARM_ACTOR, checkAlarms } from "./alarm-check.service";

describeEachProvider("the runaway alarm's pause policy", ({ db }) => {
  let h: Harness | undefined;
  afterEach(async () => h?.stop());

  // Fast, but a real agent call: it yields to the event loop (an in-process
  // agent that never does would starve the timers on SQLite's synchronous driver).
  const fast = async () => {
    await new Promise((resolve) => setTimeout(resolve, 2));
    return {
      output: "again",
      claim: { done: false },
      usage: { input: 1, output: 1, cache: 0 },
      costUsd: 0.001,
      toolCalls: [],
    };
  };
  const start = (action: "alert" | "pause") =>
    createLoop(
      h!.services,
      {
        goal: `spin (${action})`,
        agentKind: "fast",
        definition: { agent: { kind: "fast" }, loop: { alarms: { runaway: { maxIterations: 5, action } } } },
        engineConfig: { stop: { maxIterations: 2_000, noProgressIterations: 0 } },
        start: true,
      },
      asOperator(),
    );

  it("pauses a runaway loop when the policy says so, and only alerts otherwise", async () => {
    h = createHarness(db(), { fast }, { settings: { sliceBudgetMs: 1_000 } });
    const paused = await start("pause");
    const alerted = await start("alert");
    // Each alarm is raised once (then quiet): collect them over the checks.
    const raised: Awaited<ReturnType<typeof checkAlarms>> = [];
    await waitFor(
      async () => {
        raised.push(...(await checkAlarms(db(), Date.now())));
        return raised.length;
      },
      () => raised.length >= 2,
      60_000,
    );
    expect(raised.map((a) => [a.loopId, a.alarm, a.action]).sort()).toEqual(
      [
        [paused.id, "runaway", "pause"],
        [alerted.id, "runaway", "alert"],
      ].sort(),
    );
    const loop = await waitFor(
      () => db().prisma.loop.findUniqueOrThrow({ where: { id: paused.id } }),
      (l) => l.status === "paused",
      30_000,
    );
    expect(loop.status).toBe("paused");
    const applied = await db().prisma.loopEvent.findFirstOrThrow({
      where: { loopId: paused.id, type: "control_applied" },
    });
    expect(applied.actor).toBe(ALARM_ACTOR);
    const alarm = await db().prisma.loopEvent.findFirstOrThrow({ where: { loopId: paused.id, type: "alarm_raised" } });
    expect(alarm.payload).toMatchObject({ alarm: "runaway", action: "pause" });
    expect(alarm.reason).toMatch(/pausing the loop/);
    // The other loop was only alerted about: still going, and no control request was stored for it.
    expect(await db().prisma.controlRequest.count({ where: { loopId: alerted.id } })).toBe(0);
    expect((await db().prisma.loop.findUniqueOrThrow({ where: { id: alerted.id } })).status).not.toBe("paused");
    await requestControl(h.services, alerted.id, { kind: "terminate" }, asOperator("test over"));
  }, 90_000);
});

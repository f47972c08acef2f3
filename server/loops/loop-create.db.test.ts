// Creating, starting and forking loops write audit events; live readers must
// see them at once, not at their next fallback poll (a minute here).
import { afterAll, expect, it } from "vitest";
import { describeEachProvider } from "../../test/db-providers";
import { until } from "../../test/event-test-helpers";
import { asOperator, createHarness } from "../../test/runtime-harness";
import { latestEventId, type StoredLoopEvent } from "../db/events.repo";
import { streamEvents } from "../events/event-stream";
import { closeEventWakeups, getEventWakeups } from "../events/event-wakeups";
import { createLoop, startLoop } from "./loop-create.service";

afterAll(() => closeEventWakeups());

describeEachProvider("loop creation events", ({ db }) => {
  it("reach a live reader without waiting for its fallback poll", async () => {
    const harness = createHarness(db(), {});
    const abort = new AbortController();
    const received: StoredLoopEvent[] = [];
    const stream = streamEvents(db(), {
      afterId: await latestEventId(db().prisma),
      signal: abort.signal,
      wakeups: getEventWakeups(db()),
      pollIntervalMs: 60_000,
    });
    const reading = (async () => {
      for await (const event of stream) received.push(event);
    })();
    try {
      const { id } = await createLoop(
        harness.services,
        { goal: "g", agentKind: "none", definition: {}, engineConfig: {}, start: false },
        asOperator("test"),
      );
      await until(() => received.some((e) => e.loopId === id && e.type === "loop_created"), 3_000);
      await startLoop(harness.services, id, asOperator("test"));
      await until(() => received.some((e) => e.loopId === id && e.type === "loop_start_requested"), 3_000);
      const types = received.filter((e) => e.loopId === id).map((e) => e.type);
      expect(types.slice(0, 2)).toEqual(["loop_created", "loop_start_requested"]);
    } finally {
      abort.abort();
      await reading;
      await harness.stop();
    }
  });
});

// The in-flight agent record: deferred so an agent that is done at once costs
// no write once its step is committed, written for one that keeps running or
// whose step is late.
import { expect, it } from "vitest";
import { describeEachProvider } from "../../test/db-providers";
import { waitFor } from "../../test/runtime-harness";
import { createLoop } from "../loops/loop-create.service";
import { LOCAL_OPERATOR } from "../auth/actor";
import { LocalDispatcher } from "./local-dispatcher";
import { systemDeps } from "./system-deps";
import { createAgentTracker } from "./agent-tracker";

const group = { pgid: 4242, host: "h", bootId: null, startTicks: null, marker: "RALPH_AGENT_ID=x" };
const spend = { input: 10, output: 5, cache: 0, costUsd: 0.25 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describeEachProvider("agent tracker", ({ db }) => {
  async function claimedLoop() {
    const svc = { db: db(), dispatcher: new LocalDispatcher(), engine: systemDeps };
    const loop = await createLoop(
      svc,
      { goal: "track", agentKind: "command", definition: {}, engineConfig: {}, start: true },
      { actor: LOCAL_OPERATOR, reason: "test" },
    );
    await db().loopStore.claim(loop.id, "owner", new Date(), 60_000);
    await db().loopStore.markInflight(loop.id, "owner", 1, new Date());
    const stored = async () =>
      (await db().prisma.loop.findUniqueOrThrow({ where: { id: loop.id }, select: { inflightAgent: true } }))
        .inflightAgent as { group?: unknown; spend?: unknown } | null;
    return { id: loop.id, stored };
  }

  it("a process still running after the delay is recorded, and later spend too", async () => {
    const { id, stored } = await claimedLoop();
    const tracker = createAgentTracker(db().prisma, id, "owner", 30);
    tracker.started(id, 1, group);
    expect(await stored()).toBeNull();
    await waitFor(stored, (a) => a !== null && (a as { group?: unknown }).group !== undefined, 10_000);
    tracker.spent(id, 1, spend);
    await waitFor(stored, (a) => (a as { spend?: unknown })?.spend !== undefined, 10_000);
    expect(await stored()).toEqual({ group, spend });
  });

  it("one done at once writes nothing once its step moved on; its spend is written if the step is late", async () => {
    // The step committed (the in-flight iteration moved on) before the delay ran out: nothing is written.
    const { id, stored } = await claimedLoop();
    const tracker = createAgentTracker(db().prisma, id, "owner", 1_000);
    tracker.started(id, 1, group);
    tracker.spent(id, 1, spend);
    tracker.finished?.(id, 1);
    await db().loopStore.markInflight(id, "owner", 2, new Date());
    tracker.started(id, 2, group);
    tracker.finished?.(id, 2);
    await sleep(1_300);
    expect(await stored()).toBeNull();

    // No step commit within the delay (a crash would lose it): the spend is written, with its group.
    const late = await claimedLoop();
    const slow = createAgentTracker(db().prisma, late.id, "owner", 30);
    slow.started(late.id, 1, group);
    slow.spent(late.id, 1, spend);
    slow.finished?.(late.id, 1);
    expect(await late.stored()).toBeNull();
    await waitFor(late.stored, (a) => a !== null, 10_000);
    expect(await late.stored()).toEqual({ group, spend });

    const quiet = await claimedLoop();
    const second = createAgentTracker(db().prisma, quiet.id, "owner", 20);
    second.started(quiet.id, 1, group);
    second.finished?.(quiet.id, 1);
    await sleep(200);
    expect(await quiet.stored()).toBeNull();
  });
});

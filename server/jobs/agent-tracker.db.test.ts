// The in-flight agent record: deferred so an agent that is done at once costs
// at most one write (its spend), written for one that keeps running.
import { expect, it } from "vitest";
import { describeEachProvider } from "../../test/db-providers";
import { waitFor } from "../../test/runtime-harness";
import { createLoop } from "../loops/loop-create.service";
import { LOCAL_OPERATOR } from "../auth/actor";
import { claimLoop } from "../db/loop-lease.repo";
import { markInflight } from "../db/loop-steps.repo";
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
    await claimLoop(db().prisma, loop.id, "owner", new Date(), 60_000);
    await markInflight(db().prisma, loop.id, "owner", 1, new Date());
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

  it("one done at once writes its spend once, with its group; one that reported none writes nothing", async () => {
    const { id, stored } = await claimedLoop();
    const tracker = createAgentTracker(db().prisma, id, "owner", 5_000);
    tracker.started(id, 1, group);
    tracker.spent(id, 1, spend);
    tracker.finished?.(id, 1);
    await waitFor(stored, (a) => a !== null, 10_000);
    expect(await stored()).toEqual({ group, spend });

    const quiet = await claimedLoop();
    const second = createAgentTracker(db().prisma, quiet.id, "owner", 20);
    second.started(quiet.id, 1, group);
    second.finished?.(quiet.id, 1);
    await sleep(200);
    expect(await quiet.stored()).toBeNull();
  });
});

// The loop store's own reads and claims against the Prisma queries they stand
// beside: what they return must equal what Prisma reads, field for field, on
// both databases.
import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import { describeEachProvider } from "../../test/db-providers";
import { PostgresLoopStore } from "./loop-store/postgres-loop-store";
import { SqliteLoopStore } from "./loop-store/sqlite-loop-store";

const AT = new Date("2026-11-24T01:02:03.456Z");
const LATER = new Date("2026-11-24T01:02:04.007Z");

describeEachProvider("loop store reads", ({ db, kind }) => {
  it("is the store of the database's kind, chosen when it was opened", () => {
    expect(db().loopStore).toBeInstanceOf(kind === "sqlite" ? SqliteLoopStore : PostgresLoopStore);
  });

  it("reads a claimed loop as Prisma does: the columns the runtime uses, Json and nulls", async () => {
    const id = randomUUID();
    await db().prisma.loop.create({
      data: {
        id,
        goal: "g \u00e9",
        agentKind: "command",
        config: { a: [1, "x"], b: null },
        status: "running",
        costUsd: 0.125,
        bestScore: null,
        lastScore: 0.5,
        leaseOwner: "me",
        leaseExpiresAt: LATER,
        inflightIteration: 3,
        inflightAttempt: 2,
        inflightStartedAt: AT,
        inflightAgent: { group: 7 },
        nextRunAt: null,
        lastHeartbeatAt: AT,
        lastActivityAt: AT,
        startedAt: AT,
        finishedAt: AT,
        createdAt: AT,
      },
    });
    const viaPrisma = await db().prisma.loop.findFirst({
      where: { id, leaseOwner: "me" },
      select: { id: true, goal: true, agentKind: true, config: true, checkpointId: true, inflightIteration: true },
    });
    expect(viaPrisma).not.toBeNull();
    expect(await db().loopStore.loadClaimed(id, "me")).toEqual(viaPrisma);
    expect(await db().loopStore.loadClaimed(id, "not-me")).toBeNull();
  });

  it("reads the parts and the output a checkpoint cites", async () => {
    const id = randomUUID();
    await db().prisma.loop.create({ data: { id, goal: "g", agentKind: "command", config: {} } });
    await db().prisma.checkpointPart.createMany({
      data: [
        { loopId: id, hash: "h1", body: "one" },
        { loopId: id, hash: "h2", body: "two" },
      ],
    });
    await db().prisma.iteration.create({
      data: {
        id: `${id}:1:1`,
        loopId: id,
        number: 1,
        attempt: 1,
        status: "ok",
        agentId: "a",
        input: "",
        output: "out",
        startedAt: AT,
        finishedAt: AT,
      },
    });
    const cited = await db().loopStore.citedByCheckpoint(id, { parts: ["h1", "h2", "gone"], outputRow: `${id}:1:1` });
    expect(cited).toEqual({
      parts: new Map([
        ["h1", "one"],
        ["h2", "two"],
      ]),
      output: "out",
    });
    expect(await db().loopStore.citedByCheckpoint(id, { parts: [], outputRow: null })).toEqual({
      parts: new Map(),
      output: undefined,
    });
  });

  it("claims runnable loops whose lease is free or expired, never a live one, and writes the lease as given", async () => {
    await db().prisma.loop.updateMany({ data: { status: "completed" } });
    const make = async (data: { status: string; leaseOwner?: string; leaseExpiresAt?: Date; nextRunAt?: Date }) => {
      const id = randomUUID();
      await db().prisma.loop.create({ data: { id, goal: "g", agentKind: "command", config: {}, ...data } });
      return id;
    };
    const now = new Date("2026-11-24T10:00:00.000Z");
    const free = await make({ status: "queued" });
    const expired = await make({ status: "running", leaseOwner: "dead", leaseExpiresAt: new Date(now.getTime() - 1) });
    const held = await make({ status: "running", leaseOwner: "alive", leaseExpiresAt: new Date(now.getTime() + 1) });
    const due = await make({ status: "waiting", nextRunAt: new Date(now.getTime() - 5) });
    const notDue = await make({ status: "waiting", nextRunAt: new Date(now.getTime() + 5) });
    const claimed = await db().loopStore.claimNext("w1", now, 15_000, 10);
    expect(new Set(claimed)).toEqual(new Set([free, expired, due]));
    const rows = await db().prisma.loop.findMany({ where: { id: { in: [free, expired, held, due, notDue] } } });
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const id of [free, expired, due]) {
      expect(byId.get(id)).toMatchObject({ leaseOwner: "w1", leaseExpiresAt: new Date(now.getTime() + 15_000) });
    }
    expect(byId.get(held)!.leaseOwner).toBe("alive");
    expect(byId.get(notDue)!.leaseOwner).toBeNull();
    // Claimed now: a second worker finds nothing.
    expect(await db().loopStore.claimNext("w2", now, 15_000, 10)).toEqual([]);
  });
});

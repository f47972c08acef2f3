// The loop store's step commit (its own statements and value encoding, group
// commit) against the same write made through Prisma's model API (the oracle in
// test/prisma-step-commit.ts): committed both ways on twin loops, it must read
// back through Prisma identically, field for field, and fence alike.
import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import { describeEachProvider } from "../../test/db-providers";
import { runningLoop } from "../../test/step-write-fixture";
import { DB_NULL } from "./step-write";
import { LeaseLostError } from "./loop-lease.repo";
import { commitStepViaPrisma } from "../../test/prisma-step-commit";
import { StaleLoopError } from "./step-errors";
import type { StepWrite } from "./step-write";
import { pendingControlRequests } from "./controls.repo";
import type { Db } from "./prisma-client";

const AT = new Date("2026-11-24T01:02:03.456Z");
const LATER = new Date("2026-11-24T01:02:04.789Z");

describeEachProvider("lean step commit", ({ db }) => {
  const loop = (lease: string | null) => runningLoop(db().prisma, lease, LATER);

  async function pendingControl(loopId: string, id: string = randomUUID()) {
    await db().prisma.controlRequest.create({
      data: { id, loopId, kind: "nudge", payload: { text: "hi" }, actor: "op", actorId: null, createdAt: AT },
    });
    return id;
  }

  /** A write that uses every part of StepWrite, with the odd values Prisma encodes (Json, dates, booleans, nulls, NULs). */
  async function fullWrite(loopId: string, tag: string): Promise<StepWrite> {
    const ackId = await pendingControl(loopId, `${tag}-ack`);
    await pendingControl(loopId, `${tag}-left`);
    await db().prisma.approval.create({
      data: { id: `${tag}-old-gate`, loopId, iteration: 1, gate: "every_n", context: { n: 1 } },
    });
    return {
      loopId,
      fence: { owner: "me" },
      loop: {
        status: "completed",
        stopType: "completed",
        stopReason: "done\u0000!",
        iteration: 3,
        costUsd: 0.125,
        budgetUsd: null,
        tokensIn: 10,
        bestScore: 0.5,
        lastScore: null,
        lastActivityAt: AT,
        nextRunAt: null,
        finishedAt: LATER,
      },
      ended: true,
      iteration: {
        row: {
          id: `${tag}-it`,
          number: 3,
          status: "succeeded",
          agentId: "agent",
          input: "in",
          output: "out \u0000 put",
          outputTruncated: true,
          claimedDone: true,
          claim: null,
          evidence: { items: [1, "two", { three: null }], complete: true },
          evidenceComplete: false,
          scores: { s: { score: 0.5, reason: null } },
          meanScore: 0.5,
          validation: undefined,
          verification: "a json string",
          reflection: DB_NULL,
          toolCalls: [],
          tokensIn: 10,
          costUsd: 0.125,
          startedAt: AT,
          finishedAt: LATER,
          durationMs: 544,
          health: null,
          error: null,
          checkpointId: `${tag}-cp`,
          askedQuestion: false,
          diagnostics: { trace: [{ span: "x", ms: 1.5 }] },
        },
        attempt: 2,
      },
      nextInflight: { number: 4, at: AT },
      checkpoint: {
        id: `${tag}-cp`,
        iteration: 3,
        state: '{"b":1,"a":2}',
        sha256: "f".repeat(64),
        // The second is one the loop stored already: it stays as it was, and the commit goes through.
        parts: [
          { hash: "a".repeat(64), body: '{"config":1}' },
          { hash: "b".repeat(64), body: '"stored before"' },
        ],
      },
      events: [
        { loopId, type: "iteration_completed", payload: { iteration: 3 } },
        { loopId, type: "halted", actor: "op", actorId: null, reason: "done", payload: { status: "completed" } },
        { loopId, type: "note" },
      ],
      acks: [{ requestId: ackId, outcome: "applied", note: "ok", at: AT.getTime() }],
      newControls: [
        { id: `${tag}-new`, loopId, kind: "resume", actorId: null, actor: "op", reason: null, status: "applied" },
      ],
      release: true,
      openApproval: {
        id: `${tag}-gate`,
        iteration: 3,
        gate: "before_completion",
        deadlineAt: LATER,
        defaultAction: "reject",
        context: { why: ["x"] },
      },
      decidedApprovals: [{ id: `${tag}-old-gate`, status: "approved", comment: null, by: "op", byId: null, at: AT }],
    };
  }

  /** Everything the step wrote, with the twin's own ids and write times taken out. */
  async function stored(loopId: string, tag: string) {
    const p = db().prisma;
    const strip = (v: unknown) =>
      JSON.parse(
        JSON.stringify(v, (k, x: unknown) =>
          ["id", "loopId", "createdAt", "updatedAt", "appliedAt", "requestedAt", "eventId", "nextAttemptAt"].includes(k)
            ? undefined
            : typeof x === "string"
              ? x.replaceAll(loopId, "LOOP").replaceAll(tag, "TAG")
              : x,
        ),
      );
    const loopRow = await p.loop.findUniqueOrThrow({ where: { id: loopId } });
    const deliveries = await p.alertDelivery.findMany({ where: { loopId }, orderBy: { kind: "asc" } });
    return {
      raw: { loopRow, iteration: await p.iteration.findFirst({ where: { loopId } }) },
      loop: strip(loopRow),
      iterations: strip(await p.iteration.findMany({ where: { loopId } })),
      checkpoints: strip(await p.checkpoint.findMany({ where: { loopId } })),
      parts: strip(await p.checkpointPart.findMany({ where: { loopId }, orderBy: { hash: "asc" } })),
      events: strip(await p.loopEvent.findMany({ where: { loopId }, orderBy: { id: "asc" } })),
      controls: strip(await p.controlRequest.findMany({ where: { loopId }, orderBy: { id: "asc" } })),
      approvals: strip(await p.approval.findMany({ where: { loopId }, orderBy: { id: "asc" } })),
      deliveries: strip(deliveries),
      deliveryIds: deliveries.map((d) => d.id),
    };
  }

  it("writes what the Prisma version writes, read back through Prisma field for field", async () => {
    await db().prisma.alertChannel.create({
      data: {
        id: randomUUID(),
        name: `ch-${randomUUID()}`,
        kind: "webhook",
        urlCiphertext: "x",
        urlHost: "h",
        secretCiphertext: "s",
        events: "loop_ended",
      },
    });
    // Two users' push subscriptions; one of them muted "done" notices everywhere: only the other gets a row.
    const [muter, listener] = [randomUUID(), randomUUID()];
    for (const userId of [muter, listener])
      await db().prisma.alertChannel.create({
        data: {
          id: randomUUID(),
          name: `push-${randomUUID()}`,
          kind: "webpush",
          urlCiphertext: "x",
          urlHost: "h",
          secretCiphertext: "s",
          events: "loop_ended",
          createdById: userId,
        },
      });
    await db().prisma.noticeMute.create({ data: { userId: muter, loopId: "", noticeClass: "done" } });
    const viaPrisma = await loop("me");
    const viaLean = await loop("me");
    for (const loopId of [viaPrisma, viaLean])
      await db().prisma.checkpointPart.create({ data: { loopId, hash: "b".repeat(64), body: '"stored before"' } });
    expect(await commitStepViaPrisma(db().prisma, await fullWrite(viaPrisma, "twin-prisma"))).toEqual({
      released: true,
    });
    expect(await db().loopStore.commitStep(await fullWrite(viaLean, "twin-lean"))).toEqual({ released: true });

    const expected = await stored(viaPrisma, "twin-prisma");
    const got = await stored(viaLean, "twin-lean");
    for (const part of [
      "loop",
      "iterations",
      "checkpoints",
      "parts",
      "events",
      "controls",
      "approvals",
      "deliveries",
    ] as const)
      expect(got[part], part).toEqual(expected[part]);
    expect(got.parts).toEqual([
      { hash: "a".repeat(64), body: '{"config":1}' },
      { hash: "b".repeat(64), body: '"stored before"' },
    ]);
    // Types as Prisma hands them back, not only their JSON.
    expect(got.raw.loopRow.finishedAt).toEqual(LATER);
    expect(got.raw.loopRow.inflightStartedAt).toEqual(AT);
    expect(got.raw.loopRow.inflightAgent).toBeNull();
    expect(got.raw.loopRow.leaseOwner).toBeNull();
    expect(got.raw.loopRow.updatedAt).toBeInstanceOf(Date);
    expect(got.raw.iteration?.outputTruncated).toBe(true);
    expect(got.raw.iteration?.output).toBe("out \uFFFD put");
    expect(got.raw.iteration?.verification).toBe("a json string");
    expect(got.raw.iteration?.reflection).toBeNull();
    expect(got.deliveryIds).toHaveLength(2);
    expect(got.deliveryIds[0]).toMatch(/^evt-\d+-/);
    // A deliverer finds the row due, comparing the lean path's timestamp in SQL.
    expect(
      await db().prisma.alertDelivery.count({ where: { loopId: viaLean, nextAttemptAt: { lte: new Date() } } }),
    ).toBe(2);
    // The left-over request was rejected with its event, as the loop ended.
    expect(got.controls.map((c: { status: string }) => c.status).sort()).toEqual(["applied", "applied", "rejected"]);
    // Timestamps written by the lean path compare in SQL like Prisma's own.
    expect(await db().prisma.loop.count({ where: { id: viaLean, updatedAt: { gt: AT } } })).toBe(1);
  });

  it("fences like the Prisma version: a lost lease and a stale version write nothing", async () => {
    const leased = await loop("someone-else");
    const write = (loopId: string, fence: StepWrite["fence"]): StepWrite => ({
      loopId,
      fence,
      loop: { iteration: 1 },
      ended: false,
      checkpoint: { id: randomUUID(), iteration: 1, state: "{}", sha256: "0".repeat(64) },
      events: [{ loopId, type: "note" }],
      acks: [],
    });
    await expect(db().loopStore.commitStep(write(leased, { owner: "me" }))).rejects.toBeInstanceOf(LeaseLostError);
    const idle = await loop(null);
    await expect(db().loopStore.commitStep(write(idle, { version: 7 }))).rejects.toBeInstanceOf(StaleLoopError);
    expect(await db().loopStore.commitStep(write(idle, { version: 0 }))).toEqual({ released: false });
    expect(await db().prisma.checkpoint.count({ where: { loopId: { in: [leased] } } })).toBe(0);
    expect(await db().prisma.loopEvent.count({ where: { loopId: leased } })).toBe(0);
    expect((await db().prisma.loop.findUniqueOrThrow({ where: { id: idle } })).version).toBe(1);
    // An ack for a request already settled aborts that write only.
    const id = await loop("me");
    const ack = { requestId: await pendingControl(id), outcome: "applied" as const, note: "", at: AT.getTime() };
    await db().loopStore.commitStep({ ...write(id, { owner: "me" }), acks: [ack] });
    await expect(db().loopStore.commitStep({ ...write(id, { owner: "me" }), acks: [ack] })).rejects.toThrow(
      /already settled/,
    );
    expect((await db().prisma.loop.findUniqueOrThrow({ where: { id } })).version).toBe(1);
  });

  it("a runtime's step returns the requests still pending, as Prisma reads them, so the next safe point need not read", async () => {
    const step = (loopId: string, ack: string, release: boolean): StepWrite => ({
      loopId,
      fence: { owner: "me" },
      loop: { iteration: 1 },
      ended: false,
      events: [],
      acks: [{ requestId: ack, outcome: "applied", note: "", at: AT.getTime() }],
      release,
    });
    for (const [via, commit] of [
      ["prisma", commitStepViaPrisma],
      ["store", (_db: Db, write: StepWrite) => db().loopStore.commitStep(write)],
    ] as const) {
      const id = await loop("me");
      const answered = await pendingControl(id);
      const first = await pendingControl(id, `${via}-a`);
      await db().prisma.controlRequest.create({
        data: { id: `${via}-b`, loopId: id, kind: "interrupt", payload: undefined, actor: "op", reason: "why" },
      });
      const expected = await pendingControlRequests(db().prisma, id);
      expect(expected.map((r) => r.id)).toEqual([answered, first, `${via}-b`]);
      // The answered one is settled by this very commit; the others are returned, oldest first.
      const kept = await commit(db().prisma, step(id, answered, false));
      expect(kept, via).toEqual({ released: false, pendingControls: expected.slice(1) });
      expect(await db().loopStore.readPendingControls(id), via).toEqual(expected.slice(1));
      // A releasing step that finds requests keeps the lease and hands them over the same way.
      const held = await commit(db().prisma, step(id, first, true));
      expect(held, via).toEqual({ released: false, pendingControls: expected.slice(2) });
      expect((await db().prisma.loop.findUniqueOrThrow({ where: { id } })).leaseOwner).toBe("me");
    }
  });

  it("marks an iteration in flight: attempt 1 for a new number, the attempt already recorded for the same one, fenced", async () => {
    const id = await loop("me");
    await db().prisma.loop.update({ where: { id }, data: { status: "queued", nextRunAt: LATER } });
    expect(await db().loopStore.markInflight(id, "me", 1, AT)).toBe(1);
    let row = await db().prisma.loop.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ inflightIteration: 1, inflightAttempt: 1, inflightStartedAt: AT, startedAt: AT });
    expect(row).toMatchObject({ status: "running", nextRunAt: null, inflightAgent: null, lastActivityAt: AT });
    // A crash record moved the attempt on: the same number keeps it, and the loop's start stays the first one.
    await db().prisma.loop.update({ where: { id }, data: { inflightAttempt: 3, inflightAgent: { group: 2 } } });
    expect(await db().loopStore.markInflight(id, "me", 1, LATER)).toBe(3);
    row = await db().prisma.loop.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ inflightAttempt: 3, inflightStartedAt: LATER, startedAt: AT, inflightAgent: null });
    expect(await db().loopStore.markInflight(id, "me", 2, LATER)).toBe(1);
    expect((await db().prisma.loop.findUniqueOrThrow({ where: { id } })).startedAt).toEqual(AT);
    await expect(db().loopStore.markInflight(id, "not-me", 3, LATER)).rejects.toBeInstanceOf(LeaseLostError);
    expect((await db().prisma.loop.findUniqueOrThrow({ where: { id } })).inflightIteration).toBe(2);
    // A fork's first iteration of its own is not number 1: its start is still recorded, once (issue 31:
    // the fork's header said "Elapsed — not started" though it ran).
    const fork = await loop("me");
    await db().prisma.loop.update({ where: { id: fork }, data: { startedAt: null } });
    expect(await db().loopStore.markInflight(fork, "me", 4, AT)).toBe(1);
    expect((await db().prisma.loop.findUniqueOrThrow({ where: { id: fork } })).startedAt).toEqual(AT);
    expect(await db().loopStore.markInflight(fork, "me", 5, LATER)).toBe(1);
    expect((await db().prisma.loop.findUniqueOrThrow({ where: { id: fork } })).startedAt).toEqual(AT);
    // The checkpoint a claim points at reads back as stored.
    await db().prisma.checkpoint.create({
      data: { id: `${id}-cp`, loopId: id, iteration: 1, state: '{"a":1}', sha256: "ab" },
    });
    expect(await db().loopStore.checkpointById(`${id}-cp`)).toEqual({
      id: `${id}-cp`,
      loopId: id,
      state: '{"a":1}',
      sha256: "ab",
    });
    expect(await db().loopStore.checkpointById("none")).toBeNull();
  });
});

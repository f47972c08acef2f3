// Every operator control through the tRPC caller, against a real runtime on
// SQLite and PostgreSQL.
import { randomUUID } from "node:crypto";
import { TRPCError } from "@trpc/server";
import { afterEach, expect, it } from "vitest";
import { describeEachProvider } from "../../../test/db-providers";
import { asOperator, createHarness, waitFor, type Harness, type ScriptedAgent } from "../../../test/runtime-harness";
import { createLoop } from "../../loops/loop-create.service";
import { createContext } from "../context";
import { createCaller } from "../root";

/**
 * Takes `ms` per call (honouring aborts) and solves the goal on call `solvedAt`.
 * With `gate`, the first call also waits for it: a test can act while that
 * iteration is surely still running, however slow the machine.
 */
const slowAgent =
  (ms: number, solvedAt = 99, gate?: Promise<void>): ScriptedAgent =>
  async (req) => {
    if (req.iteration === 1 && gate) await gate;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          resolve({
            output: `attempt ${req.iteration}: ${"✓".repeat(Math.min(req.iteration, solvedAt))}`,
            claim: { done: false },
            usage: { input: 10, output: 5, cache: 0 },
            costUsd: 0.001,
            toolCalls: [],
          }),
        ms,
      );
      req.signal.addEventListener("abort", () => {
        clearTimeout(timer);
        reject(new Error("aborted"));
      });
    });
  };

describeEachProvider("loop controls", ({ db }) => {
  let h: Harness;
  afterEach(async () => h?.stop());

  const setup = (agent: ScriptedAgent, solvedAt = 3) => {
    h = createHarness(
      db(),
      { agent },
      {
        scorers: [
          {
            name: "progress",
            score: ({ output }) => ({ score: Math.min(1, (output.match(/✓/g)?.length ?? 0) / solvedAt) }),
          },
        ],
      },
    );
    return createCaller(createContext({ services: h.services }));
  };
  const start = async (engineConfig: unknown) =>
    (
      await createLoop(
        h.services,
        { goal: "tick three times", agentKind: "agent", definition: {}, engineConfig, start: true },
        asOperator(),
      )
    ).id;
  const loopRow = (id: string) => db().prisma.loop.findUniqueOrThrow({ where: { id } });
  const outcomeEvents = async (id: string) =>
    (
      await db().prisma.loopEvent.findMany({
        where: { loopId: id, type: { in: ["control_applied", "control_rejected"] } },
      })
    ).map((e) => ({ type: e.type, requestId: (e.payload as { requestId?: string }).requestId }));
  const statusIs = (id: string, status: string) =>
    waitFor(
      () => loopRow(id),
      (l) => l.status === status,
    );

  it("interrupt shows interrupting, then pauses after the iteration; resume finishes", async () => {
    let release = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const api = setup(slowAgent(200, 3, gate));
    const id = await start({ stop: { scoreThreshold: 0.9 } });
    await waitFor(
      () => loopRow(id),
      (l) => l.inflightIteration === 1,
    );
    await api.loops.controls.interrupt({ id, reason: "lunch" });
    expect((await api.loops.byId({ id })).loop.displayStatus).toBe("interrupting");
    release();
    await statusIs(id, "paused");
    expect(await db().prisma.iteration.count({ where: { loopId: id, status: "succeeded" } })).toBe(1);
    // Nothing holds a paused loop: resume takes effect at once.
    expect((await api.loops.controls.resume({ id })).outcome).toBe("applied");
    await statusIs(id, "completed");
    // The interrupt waited for the iteration (requested, then applied); the resume applied at once.
    const requested = await db().prisma.loopEvent.findMany({ where: { loopId: id, type: "control_requested" } });
    expect(requested.map((e) => [e.actor, e.reason])).toEqual([["local", "lunch"]]);
    const applied = await db().prisma.loopEvent.findMany({
      where: { loopId: id, type: "control_applied" },
      orderBy: { id: "asc" },
    });
    expect(applied.map((e) => [(e.payload as { command: string }).command, e.actor, e.reason])).toEqual([
      ["interrupt", "local", "lunch"],
      ["resume", "local", "resume"],
    ]);
  });

  it("kill aborts the running agent, records the iteration as interrupted, and pauses", async () => {
    const api = setup(slowAgent(5_000));
    const id = await start({});
    await waitFor(
      () => loopRow(id),
      (l) => l.inflightIteration === 1,
    );
    const before = Date.now();
    await api.loops.controls.kill({ id, reason: "runaway" });
    await statusIs(id, "paused");
    expect(Date.now() - before).toBeLessThan(2_000);
    const rows = await db().prisma.iteration.findMany({ where: { loopId: id } });
    expect(rows.map((r) => r.status)).toEqual(["interrupted"]);
  });

  it("a control that makes no sense now is a CONFLICT, recorded once with its reason", async () => {
    const api = setup(slowAgent(1, 2), 2);
    const id = await start({ stop: { scoreThreshold: 0.9 } });
    await statusIs(id, "completed");
    const error = await api.loops.controls.resume({ id }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCError);
    expect((error as TRPCError).code).toBe("CONFLICT");
    const id2 = await start({ stop: { maxIterations: 50, noProgressIterations: 0 } });
    await api.loops.controls.interrupt({ id: id2 });
    await statusIs(id2, "paused");
    const again = await api.loops.controls.interrupt({ id: id2 }).catch((e: unknown) => e);
    expect((again as TRPCError).code).toBe("CONFLICT");
    expect((again as TRPCError).message).toBe("Cannot interrupt: the loop is already paused");
    expect((await api.loops.controls.resume({ id: id2 })).outcome).toBe("applied");
    const resumedTwice = await api.loops.controls.resume({ id: id2 }).catch((e: unknown) => e);
    expect((resumedTwice as TRPCError).code).toBe("CONFLICT");
    await api.loops.controls.terminate({ id: id2, reason: "enough" });
    await waitFor(
      () => loopRow(id2),
      (l) => ["stopped", "completed", "failed"].includes(l.status),
    );
    const recorded = await db().prisma.controlRequest.findMany({
      where: { loopId: id2 },
      orderBy: { createdAt: "asc" },
    });
    expect(recorded.map((r) => [r.kind, r.status])).toEqual([
      ["interrupt", "applied"],
      ["interrupt", "rejected"],
      ["resume", "applied"],
      ["resume", "rejected"],
      ["terminate", "applied"],
    ]);
    // One outcome in the audit trail per request.
    for (const r of recorded) {
      const outcomes = (await outcomeEvents(id2)).filter((e) => e.requestId === r.id).length;
      expect(outcomes, `${r.kind} ${r.id}`).toBe(1);
    }
  });

  it("a nudge and a forced handoff reach the next iteration's input", async () => {
    const api = setup(slowAgent(150));
    const id = await start({ stop: { maxIterations: 3, noProgressIterations: 0 } });
    await waitFor(
      () => loopRow(id),
      (l) => l.inflightIteration === 1,
    );
    await api.loops.controls.nudge({ id, message: "check the README first" });
    await api.loops.controls.forceHandoff({ id, reason: "context is stale" });
    await waitFor(
      () => loopRow(id),
      (l) => l.iteration >= 2,
    );
    const second = h.calls.find((c) => c.iteration === 2)!;
    expect(second.input).toContain("[Operator nudge]");
    expect(second.input).toContain("check the README first");
    expect(second.continuation ?? second.input).toMatch(/iteration/i);
    const handoffs = await db().prisma.loopEvent.count({ where: { loopId: id, type: "handoff" } });
    expect(handoffs).toBeGreaterThanOrEqual(1);
  });

  it("an approval gate: request changes reaches the input, approve continues", async () => {
    const api = setup(slowAgent(1, 3));
    const id = await start({ stop: { scoreThreshold: 0.9 }, approvals: { periodic: { every: 1, deadline: 0 } } });
    await statusIs(id, "awaiting_approval");
    const gate = await db().prisma.approval.findFirstOrThrow({ where: { loopId: id, status: "pending" } });
    expect(gate.gate).toBe("periodic");
    await api.loops.controls.requestChanges({ id, comment: "use shorter sentences" });
    await statusIs(id, "awaiting_approval");
    expect(h.calls.find((c) => c.iteration === 2)!.input).toContain("use shorter sentences");
    await api.loops.controls.approve({ id, comment: "ship it" });
    await statusIs(id, "completed");
    const decided = await db().prisma.approval.findMany({ where: { loopId: id }, orderBy: { requestedAt: "asc" } });
    expect(decided.map((a) => a.status)).toEqual(["changes_requested", "approved"]);
    expect(decided[1]!.comment).toBe("ship it");
    const error = await api.loops.controls.approve({ id: await start({}) }).catch((e: unknown) => e);
    expect((error as TRPCError).code).toBe("CONFLICT");
  });

  it("when an approval deadline passes, the default action is applied and recorded", async () => {
    setup(slowAgent(1, 3));
    const id = await start({
      stop: { scoreThreshold: 0.9 },
      approvals: { periodic: { every: 1, deadline: 0.3, defaultAction: "approve" } },
    });
    await statusIs(id, "completed");
    const gates = await db().prisma.approval.findMany({ where: { loopId: id }, orderBy: { requestedAt: "asc" } });
    expect(gates.length).toBeGreaterThanOrEqual(2);
    expect(gates.every((g) => g.status === "expired")).toBe(true);
    const decided = await db().prisma.loopEvent.findMany({ where: { loopId: id, type: "approval_decided" } });
    expect(decided.every((e) => (e.payload as { byDefault: boolean; decision: string }).byDefault)).toBe(true);
    expect((decided[0]!.payload as { decision: string }).decision).toBe("approve");
  });

  it("limits can be changed on a live loop, and bad limits are refused", async () => {
    const api = setup(slowAgent(100));
    const id = await start({ stop: { maxIterations: 20, noProgressIterations: 0 } });
    const bad = await api.loops.controls
      .updateLimits({ id, patch: { stop: { maxIterations: 0 } } })
      .catch((e: unknown) => e);
    expect((bad as TRPCError).code).toBe("BAD_REQUEST");
    await api.loops.controls.updateLimits({ id, patch: { stop: { maxIterations: 2 } } });
    await waitFor(
      () => loopRow(id),
      (l) => l.status === "stopped" || l.status === "failed" || l.status === "completed",
    );
    const loop = await loopRow(id);
    expect(loop.stopType).toBe("max_iterations");
    expect(loop.iteration).toBe(2);
  });

  it("fork starts a new loop from an iteration's checkpoint", async () => {
    const api = setup(slowAgent(1, 3));
    const id = await start({ stop: { maxIterations: 2, noProgressIterations: 0 } });
    await waitFor(
      () => loopRow(id),
      (l) => l.status === "stopped",
    );
    const fork = await api.loops.controls.fork({ id, iteration: 1, reason: "try again from 1" });
    await waitFor(
      () => loopRow(fork.id),
      (l) => !["queued", "running"].includes(l.status),
    );
    const forked = await loopRow(fork.id);
    expect(forked.forkedFromId).toBe(id);
    expect(forked.iteration).toBe(2);

    // A double click: the same request twice at once, then once more later, makes one fork (issue 31: two ran).
    const requestId = randomUUID();
    const clicks = await Promise.all([
      api.loops.controls.fork({ id, iteration: 1, requestId }),
      api.loops.controls.fork({ id, iteration: 1, requestId }),
    ]);
    expect(clicks.map((c) => c.id)).toEqual([requestId, requestId]);
    expect((await api.loops.controls.fork({ id, iteration: 1, requestId })).id).toBe(requestId);
    expect(await db().prisma.loop.count({ where: { forkedFromId: id } })).toBe(2);
    expect(await db().prisma.loopEvent.count({ where: { loopId: requestId, type: "loop_forked" } })).toBe(1);
    // A request id naming another loop is refused, not taken as that loop.
    await expect(api.loops.controls.fork({ id: requestId, iteration: 1, requestId: fork.id })).rejects.toMatchObject({
      code: "CONFLICT",
    });
  });

  it("interrupt, resume and kill sent at once end in one consistent state, each answered once", async () => {
    const api = setup(slowAgent(300));
    const id = await start({ stop: { maxIterations: 50, noProgressIterations: 0 } });
    await waitFor(
      () => loopRow(id),
      (l) => l.inflightIteration === 1,
    );
    const results = await Promise.allSettled([
      api.loops.controls.interrupt({ id }),
      api.loops.controls.resume({ id }),
      api.loops.controls.kill({ id }),
    ]);
    // Each either takes effect or is refused as making no sense at that moment.
    for (const r of results) {
      if (r.status === "rejected") expect((r.reason as TRPCError).code).toBe("CONFLICT");
    }
    await waitFor(
      () => db().prisma.controlRequest.count({ where: { loopId: id, status: "pending" } }),
      (n) => n === 0,
    );
    const loop = await loopRow(id);
    expect(["paused", "running", "waiting", "queued"]).toContain(loop.status);
    const requests = await db().prisma.controlRequest.findMany({ where: { loopId: id } });
    expect(requests).toHaveLength(3);
    for (const r of requests) {
      const outcomes = (await outcomeEvents(id)).filter((e) => e.requestId === r.id).length;
      expect(outcomes, r.kind).toBe(1);
    }
    if (loop.status === "paused") expect(loop.leaseOwner).toBeNull();
  });
});

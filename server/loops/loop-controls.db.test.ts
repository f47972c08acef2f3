// Operator controls through the real runtime on SQLite and PostgreSQL: each
// request is applied exactly once with one outcome in the audit trail, at once
// when nothing runs, and never stranded by a runtime letting the loop go.
import { afterEach, expect, it } from "vitest";
import { z } from "zod";
import { describeEachProvider } from "../../test/db-providers";
import {
  agentTaking,
  asOperator,
  createHarness,
  waitFor,
  type Harness,
  type ScriptedAgent,
} from "../../test/runtime-harness";
import {
  LoopConfigError,
  loopConfigSchema,
  SNAPSHOT_VERSION,
  citationsOf,
  decodeCheckpoint,
  type ControlCommand,
  type LoopConfig,
  type SnapshotCodec,
} from "../engine";
import { insertControlRequest } from "../db/controls.repo";
import { createLoop } from "./loop-create.service";
import { requestControl } from "./loop-controls.service";
import { loadCurrentSnapshot, nativeSha256 } from "./loop-snapshot";

const noScore = { name: "none", score: () => ({ score: 0 }) };

describeEachProvider("controls, exactly once", ({ db }) => {
  let h: Harness | undefined;
  afterEach(async () => h?.stop());

  const setup = (agent: ScriptedAgent, options: Parameters<typeof createHarness>[2] = {}) => {
    h = createHarness(db(), { agent }, { scorers: [noScore], ...options });
    return h;
  };
  const start = async (engineConfig: unknown) =>
    (
      await createLoop(
        h!.services,
        { goal: "keep going", agentKind: "agent", definition: {}, engineConfig, start: true },
        asOperator(),
      )
    ).id;
  const send = (id: string, command: ControlCommand, reason?: string) =>
    requestControl(h!.services, id, command, asOperator(reason));
  const refusal = (id: string, command: ControlCommand) =>
    send(id, command).then(
      () => null,
      (e: { code?: string; message: string }) => `${e.code}: ${e.message}`,
    );
  const loopRow = (id: string) => db().prisma.loop.findUniqueOrThrow({ where: { id } });
  const statusIs = (id: string, ...statuses: string[]) =>
    waitFor(
      () => loopRow(id),
      (l) => statuses.includes(l.status),
      20_000,
    );
  /** control_applied / control_rejected events per request id. */
  const outcomes = async (id: string) => {
    const events = await db().prisma.loopEvent.findMany({
      where: { loopId: id, type: { in: ["control_applied", "control_rejected"] } },
    });
    const byRequest = new Map<string, string[]>();
    for (const e of events) {
      const requestId = (e.payload as { requestId: string }).requestId;
      byRequest.set(requestId, [...(byRequest.get(requestId) ?? []), e.type]);
    }
    return byRequest;
  };
  const expectEachAnsweredOnce = async (id: string) => {
    const requests = await db().prisma.controlRequest.findMany({ where: { loopId: id } });
    const answered = await outcomes(id);
    for (const r of requests) {
      expect(r.status, `${r.kind} ${r.id}`).not.toBe("pending");
      expect(answered.get(r.id), `${r.kind} ${r.id}`).toEqual([
        r.status === "applied" ? "control_applied" : "control_rejected",
      ]);
    }
    return requests;
  };
  const inputsWith = (text: string) => h!.calls.filter((c) => c.input.includes(text)).map((c) => c.iteration);

  it("nudge, edit limits and resume on a paused loop each apply at once, once", async () => {
    setup(agentTaking(() => 30));
    const id = await start({ stop: { maxIterations: 20, noProgressIterations: 0 } });
    await send(id, { kind: "interrupt" });
    const paused = await statusIs(id, "paused");

    const nudge = await send(id, { kind: "nudge", message: "check the README first" });
    expect(nudge).toMatchObject({ outcome: "applied", status: "paused" });
    expect((await loadCurrentSnapshot(db().loopStore, id))!.inbox.nudges.map((n) => n.text)).toEqual([
      "check the README first",
    ]);
    const limits = await send(id, { kind: "update_limits", patch: { stop: { maxIterations: paused.iteration + 2 } } });
    expect(limits).toMatchObject({ outcome: "applied", status: "paused" });
    // Visible at once: nothing waits for the loop to be resumed.
    expect(await loopRow(id)).toMatchObject({ status: "paused", maxIterations: paused.iteration + 2 });
    expect(await db().prisma.controlRequest.count({ where: { loopId: id, status: "pending" } })).toBe(0);

    expect(await send(id, { kind: "resume" })).toMatchObject({ outcome: "applied", status: "queued" });
    const done = await statusIs(id, "stopped");
    expect(done).toMatchObject({ stopType: "max_iterations", iteration: paused.iteration + 2 });
    expect(inputsWith("check the README first")).toEqual([paused.iteration + 1]);
    expect(await db().prisma.loopEvent.count({ where: { loopId: id, type: "limits_updated" } })).toBe(1);
    const requests = await expectEachAnsweredOnce(id);
    expect(requests.every((r) => r.status === "applied")).toBe(true);
  });

  it("kill while awaiting approval pauses at once, keeps the approval, and resume brings it back", async () => {
    setup(agentTaking(() => 1));
    const id = await start({
      stop: { maxIterations: 5, noProgressIterations: 0 },
      approvals: { periodic: { every: 1, deadline: 0 } },
    });
    await statusIs(id, "awaiting_approval");

    expect(await send(id, { kind: "kill" }, "hold on")).toMatchObject({ outcome: "applied", status: "paused" });
    expect(await loopRow(id)).toMatchObject({ status: "paused", leaseOwner: null });
    expect(await db().prisma.approval.count({ where: { loopId: id, status: "pending" } })).toBe(1);
    expect(await refusal(id, { kind: "approve" })).toBe(
      "CONFLICT: Cannot approve: the loop is paused; resume it to answer the approval",
    );

    expect(await send(id, { kind: "resume" })).toMatchObject({ outcome: "applied", status: "awaiting_approval" });
    expect(await send(id, { kind: "approve", comment: "go on" })).toMatchObject({
      outcome: "applied",
      status: "queued",
    });
    await waitFor(
      () => db().prisma.iteration.count({ where: { loopId: id } }),
      (n) => n >= 2,
    );
    await statusIs(id, "awaiting_approval");
    await send(id, { kind: "terminate" }, "enough");
    expect(await loopRow(id)).toMatchObject({ status: "stopped", stopType: "explicit_stop" });
    const approvals = await db().prisma.approval.findMany({ where: { loopId: id }, orderBy: { requestedAt: "asc" } });
    expect(approvals.map((a) => a.status)).toEqual(["approved", "rejected"]);
    expect(approvals[0]!.decidedById).toBeNull(); // the local operator has no user id
    expect(approvals[0]!.decidedBy).toBe("local");
    await expectEachAnsweredOnce(id);
  });

  it("a kill in the last allowed iteration pauses the loop; raising the limit and resuming goes on", async () => {
    setup(agentTaking((req) => (req.iteration === 1 ? 60_000 : 1)));
    const id = await start({ stop: { maxIterations: 1, noProgressIterations: 0 } });
    await waitFor(
      () => loopRow(id),
      (l) => l.inflightIteration === 1,
    );
    const kill = await send(id, { kind: "kill" });
    expect(kill).toMatchObject({ outcome: "stored" });
    // Its event tells every tab what to show at once: the request pending, and the loop "interrupting".
    const requested = await db().prisma.loopEvent.findFirstOrThrow({
      where: { loopId: id, type: "control_requested" },
    });
    expect(requested.payload).toMatchObject({
      requestId: kill.requestId,
      command: "kill",
      outcome: "stored",
      displayStatus: "interrupting",
    });
    const paused = await statusIs(id, "paused", "stopped");
    expect(paused).toMatchObject({ status: "paused", stopType: null, iteration: 1 });
    const rows = await db().prisma.iteration.findMany({ where: { loopId: id } });
    expect(rows.map((r) => r.status)).toEqual(["interrupted"]);

    await send(id, { kind: "update_limits", patch: { stop: { maxIterations: 2 } } });
    await send(id, { kind: "resume" });
    expect(await statusIs(id, "stopped")).toMatchObject({ stopType: "max_iterations", iteration: 2 });
    await expectEachAnsweredOnce(id);
  });

  it("requests sent at random moments, running or waiting, each apply once and no nudge lands twice", async () => {
    setup(agentTaking(() => 15));
    const id = await start({ stop: { maxIterations: 200, noProgressIterations: 0 }, pacing: { delayMs: 25 } });
    await statusIs(id, "running", "waiting");
    const texts = Array.from({ length: 20 }, (_, i) => `note ${i} for the agent`);
    for (const text of texts) {
      await send(id, { kind: "nudge", message: text });
      await new Promise((r) => setTimeout(r, 5 + Math.floor(Math.random() * 40)));
    }
    await waitFor(
      async () => texts.filter((t) => inputsWith(t).length > 0).length,
      (seen) => seen === texts.length,
      20_000,
    );
    await send(id, { kind: "terminate" });
    await statusIs(id, "stopped");
    for (const text of texts) expect(inputsWith(text), text).toHaveLength(1);
    const requests = await expectEachAnsweredOnce(id);
    expect(requests.filter((r) => r.kind === "nudge" && r.status === "applied")).toHaveLength(texts.length);
    // Which path each nudge took (stored for a running iteration, or applied at once while waiting)
    // depends on the machine's speed; the exactly-once checks above hold for both.
  });

  it("a loop committing every few milliseconds never turns a control away as 'kept changing'", async () => {
    setup(agentTaking(() => 0));
    const id = await start({ stop: { maxIterations: 100_000, noProgressIterations: 0 } });
    await waitFor(
      () => loopRow(id),
      (l) => l.iteration >= 3,
    );
    for (let i = 0; i < 15; i++) {
      const sent = await send(id, { kind: "nudge", message: `fast ${i}` });
      expect(["stored", "applied"]).toContain(sent.outcome);
    }
    await send(id, { kind: "terminate" });
    await statusIs(id, "stopped");
    const requests = await expectEachAnsweredOnce(id);
    expect(requests.filter((r) => r.status === "applied")).toHaveLength(16);
  });

  it("a request left behind by a runtime that died holding a paused loop is still applied", async () => {
    setup(agentTaking(() => 1));
    const id = await start({ stop: { maxIterations: 50, noProgressIterations: 0 } });
    await send(id, { kind: "interrupt" });
    await statusIs(id, "paused");
    // A runtime claimed the paused loop and died before applying anything.
    await db().prisma.loop.update({
      where: { id },
      data: { leaseOwner: "dead-runtime:1", leaseExpiresAt: new Date(Date.now() - 1_000) },
    });
    expect(await send(id, { kind: "nudge", message: "still there?" })).toMatchObject({ outcome: "stored" });
    await waitFor(
      () => db().prisma.controlRequest.count({ where: { loopId: id, status: "pending" } }),
      (n) => n === 0,
    );
    expect(await loopRow(id)).toMatchObject({ status: "paused", leaseOwner: null });
    expect((await loadCurrentSnapshot(db().loopStore, id))!.inbox.nudges.map((n) => n.text)).toEqual(["still there?"]);
    await expectEachAnsweredOnce(id);
  });

  it("a loop whose checkpoint cannot be read still takes a terminate: the runtime fails it visibly and answers it", async () => {
    setup(agentTaking(() => 1));
    const id = await start({ stop: { maxIterations: 50, noProgressIterations: 0 } });
    await send(id, { kind: "interrupt" });
    const paused = await statusIs(id, "paused");
    await db().prisma.checkpoint.update({ where: { id: paused.checkpointId! }, data: { sha256: "0".repeat(64) } });
    expect(await send(id, { kind: "terminate" }, "it is broken")).toMatchObject({ outcome: "stored" });
    const failed = await statusIs(id, "failed");
    expect(failed.stopReason).toMatch(/cannot run this loop: .*hash/);
    const terminate = await db().prisma.controlRequest.findFirstOrThrow({ where: { loopId: id, kind: "terminate" } });
    expect(terminate).toMatchObject({ status: "rejected", result: "the loop ended (failed) before this was applied" });
    await expectEachAnsweredOnce(id);
  });

  it("a runtime keeps the loop when a request arrived after it read them, instead of stranding it", async () => {
    setup(agentTaking(() => 1));
    const id = await start({ stop: { maxIterations: 1 } });
    await statusIs(id, "stopped");
    await db().prisma.loop.update({ where: { id }, data: { status: "paused", stopType: null } });
    const owner = "runtime-under-test";
    expect(await db().loopStore.claim(id, owner, new Date(), 15_000)).toBeNull(); // paused, nothing pending
    await db().prisma.loop.update({ where: { id }, data: { status: "queued" } });
    expect(await db().loopStore.claim(id, owner, new Date(), 15_000)).not.toBeNull();
    // Stored for this runtime after it read its requests (as the service does while it holds the loop).
    await insertControlRequest(db().prisma, {
      id: "late-nudge",
      loopId: id,
      kind: "nudge",
      payload: { message: "late" },
      actorId: null,
      actor: "local",
      reason: null,
    });
    const write = { loopId: id, fence: { owner }, loop: { status: "paused" }, ended: false, events: [], acks: [] };
    // The lease is kept, and the request goes to the next safe point with the commit's answer.
    expect(await db().loopStore.commitStep({ ...write, release: true })).toMatchObject({
      released: false,
      pendingControls: [{ id: "late-nudge", kind: "nudge", payload: { message: "late" } }],
    });
    expect((await loopRow(id)).leaseOwner).toBe(owner);
    const settled = [{ requestId: "late-nudge", outcome: "applied" as const, note: "nudge applied", at: Date.now() }];
    expect(await db().loopStore.commitStep({ ...write, acks: settled, release: true })).toEqual({ released: true });
    expect((await loopRow(id)).leaseOwner).toBeNull();
    // Settling it a second time must not commit: its effect would be stored twice.
    await db().prisma.loop.update({ where: { id }, data: { leaseOwner: owner } });
    await expect(db().loopStore.commitStep({ ...write, acks: settled, release: true })).rejects.toThrow(
      /already settled/,
    );
  });

  it("a checkpoint written now restores after a snapshot version bump with a new config field, and the loop goes on", async () => {
    // Slow enough that the interrupt lands before the third iteration ends (a 1 ms agent sometimes finished first).
    setup(agentTaking(() => 500));
    const id = await start({ stop: { maxIterations: 3, noProgressIterations: 0 } });
    await send(id, { kind: "interrupt" });
    await statusIs(id, "paused");
    await h!.stop();
    const before = await db().prisma.checkpoint.findMany({ where: { loopId: id } });
    expect(before.every((c) => JSON.parse(c.state).snapshot.version === SNAPSHOT_VERSION)).toBe(true);

    // The next release: one version up, an upgrader, and a config field with a default.
    const next = loopConfigSchema.extend({ review: z.object({ reviewer: z.string().default("nobody") }).prefault({}) });
    const upgraded: string[] = [];
    const codec: SnapshotCodec = {
      version: SNAPSHOT_VERSION + 1,
      upgraders: {
        [SNAPSHOT_VERSION]: (s) => (upgraded.push(String(s.loopId)), { ...s, version: SNAPSHOT_VERSION + 1 }),
      },
      parseConfig: (input) => {
        const parsed = next.safeParse(input);
        if (!parsed.success) throw new LoopConfigError(parsed.error.issues.map((i) => i.message));
        return parsed.data as LoopConfig;
      },
    };
    setup(
      agentTaking(() => 1),
      { codec },
    );
    await send(id, { kind: "resume" });
    expect(await statusIs(id, "stopped")).toMatchObject({ stopType: "max_iterations", iteration: 3 });
    expect(upgraded.length).toBeGreaterThan(0);
    const latest = await db().prisma.checkpoint.findFirstOrThrow({
      where: { loopId: id, iteration: 3 },
      orderBy: { createdAt: "desc" },
    });
    // The config is a part of the checkpoint (format 2): decode it with what it cites.
    const stored: unknown = JSON.parse(latest.state);
    const cited = await db().loopStore.citedByCheckpoint(id, citationsOf(stored));
    const decoded = decodeCheckpoint(
      stored,
      { part: (h) => cited.parts.get(h), output: () => cited.output },
      nativeSha256,
    );
    const snapshot = (decoded as { snapshot: { version: number; config: { review?: unknown } } }).snapshot;
    expect(snapshot.version).toBe(SNAPSHOT_VERSION + 1);
    expect(snapshot.config.review).toEqual({ reviewer: "nobody" });
    const rows = await db().prisma.iteration.findMany({ where: { loopId: id }, orderBy: { number: "asc" } });
    expect(rows.map((r) => [r.number, r.status])).toEqual([
      [1, "succeeded"],
      [2, "succeeded"],
      [3, "succeeded"],
    ]);
  });

  it("the app's slice semaphore bounds how many loops run at once, and every loop still finishes", async () => {
    let running = 0;
    let most = 0;
    setup(
      (req) => {
        running++;
        most = Math.max(most, running);
        return Promise.resolve(agentTaking(() => 40)(req)).finally(() => running--);
      },
      { concurrency: 2 },
    );
    const ids = await Promise.all(
      Array.from({ length: 5 }, () => start({ stop: { maxIterations: 2, noProgressIterations: 0 } })),
    );
    expect(h!.dispatcher.queuedCount).toBeGreaterThan(0);
    await h!.dispatcher.idle();
    const rows = await db().prisma.loop.findMany({ where: { id: { in: ids } } });
    expect(rows.map((r) => r.status)).toEqual(ids.map(() => "stopped"));
    expect(most).toBe(2);
    expect(h!.slots!.inUse).toBe(0);
  });
});

// Alert delivery under faults, on both databases, against real local HTTP
// receivers: a flaky receiver gets each message exactly once by idempotency
// key; a dead one ends in the dead-letter state; a hanging one is cut off; a
// deliverer that dies holding rows, or is killed -9 mid-send, loses none.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { admin, alertHarness, eventsOfEveryKind, keyBytes } from "../../test/alert-harness";
import { describeEachProvider } from "../../test/db-providers";
import { ALERT_KINDS } from "../alert-kinds";
import { claimDueDeliveries, settleDelivery } from "../db/alerts.repo";
import { appendEvents } from "../db/events.repo";
import { inTransaction } from "../db/tx";
import { inheritedEnv } from "../env";
import { deliveryLog, retryDeadDelivery, updateAlertChannel } from "./alert-channels.service";
import { deliverDueAlerts } from "./alert-delivery.service";

describeEachProvider("alert delivery", ({ db }) => {
  const { receiver, deps, newLoop, channel, drain, disableAll } = alertHarness(db);

  it("a receiver that fails three times, then succeeds, gets the message exactly once by idempotency key", async () => {
    await disableAll();
    const flaky = await receiver((attempt) => (attempt <= 3 ? 503 : 200));
    const { channel: ch } = await channel(flaky.url, ["loop_ended"]);
    const loopId = await newLoop();
    await inTransaction(db().prisma, (tx) =>
      appendEvents(tx, [{ loopId, type: "halted", payload: { stopType: "completion", status: "completed" } }]),
    );
    await drain(deps());
    expect(flaky.requests.map((r) => r.status)).toEqual([503, 503, 503, 200]);
    // Every attempt carries the same key and the same body.
    expect(new Set(flaky.requests.map((r) => r.headers["idempotency-key"])).size).toBe(1);
    expect(new Set(flaky.requests.map((r) => r.body)).size).toBe(1);
    expect(flaky.accepted.size).toBe(1);
    const row = await db().prisma.alertDelivery.findFirstOrThrow({ where: { channelId: ch.id } });
    expect(row).toMatchObject({ status: "delivered", attempts: 4, lastStatus: 200, lastError: null });
  });

  it("a receiver that always fails ends in dead-letter, visible in the log, and can be retried; a hanging one is cut off", async () => {
    await disableAll();
    const down = await receiver(() => 500);
    const { channel: ch } = await channel(down.url, ["loop_ended"]);
    const loopId = await newLoop();
    await inTransaction(db().prisma, (tx) =>
      appendEvents(tx, [{ loopId, type: "halted", payload: { stopType: "health_failure", status: "failed" } }]),
    );
    await drain(deps());
    expect(down.requests).toHaveLength(5);
    const log = await deliveryLog(db(), { limit: 10, channelId: ch.id });
    expect(log).toEqual([
      expect.objectContaining({
        status: "dead",
        attempts: 5,
        lastStatus: 500,
        lastError: "HTTP 500",
        kind: "loop_ended",
      }),
    ]);
    expect((await deliveryLog(db(), { limit: 100, status: "dead" })).map((d) => d.id)).toContain(log[0]!.id);
    await retryDeadDelivery(db(), log[0]!.id, Date.now());
    await deliverDueAlerts(db(), deps());
    expect(down.requests).toHaveLength(6);

    await updateAlertChannel(db(), ch.id, { enabled: false }, admin);
    const hanging = await receiver(() => "hang");
    const { channel: slow } = await channel(hanging.url, ["loop_ended"]);
    await inTransaction(db().prisma, (tx) =>
      appendEvents(tx, [{ loopId, type: "halted", payload: { stopType: "completion", status: "completed" } }]),
    );
    const started = Date.now();
    const counts = await deliverDueAlerts(db(), deps({ policy: { timeoutMs: 300, baseDelayMs: 60_000 } }));
    expect(counts).toMatchObject({ retry: 1 });
    expect(Date.now() - started).toBeLessThan(5_000);
    const row = await db().prisma.alertDelivery.findFirstOrThrow({ where: { channelId: slow.id } });
    expect(row).toMatchObject({ status: "pending", attempts: 1, lastError: "no answer within 300 ms" });
    await updateAlertChannel(db(), slow.id, { enabled: false }, admin);
    await db().prisma.alertDelivery.updateMany({ where: { channelId: slow.id }, data: { status: "dead" } });
  });

  it("a deliverer that dies holding rows loses none: the next one sends them when the lease runs out", async () => {
    await disableAll();
    const hook = await receiver();
    const { channel: ch } = await channel(hook.url);
    const loopId = await newLoop();
    await inTransaction(db().prisma, (tx) => appendEvents(tx, eventsOfEveryKind(loopId)));
    // The first deliverer claims everything and then crashes before sending anything.
    const crashed = await claimDueDeliveries(db().prisma, {
      owner: "crashed",
      now: new Date(),
      leaseUntil: new Date(Date.now() + 60_000),
      limit: 100,
    });
    expect(crashed.length).toBe(ALERT_KINDS.length);
    // While the lease holds, nobody else sends them.
    expect(await deliverDueAlerts(db(), deps())).toMatchObject({ delivered: 0 });
    // After it expires, a fresh deliverer (the restarted app) sends every one of them, once.
    await drain(deps({ now: () => Date.now() + 61_000 }));
    expect(hook.requests).toHaveLength(ALERT_KINDS.length);
    expect(await db().prisma.alertDelivery.count({ where: { channelId: ch.id, status: "delivered" } })).toBe(
      ALERT_KINDS.length,
    );
    // The crashed one coming back cannot overwrite what the new owner settled.
    expect(
      await settleDelivery(db().prisma, crashed[0]!.id, "crashed", {
        status: "dead",
        httpStatus: null,
        error: "late",
        nextAttemptAt: new Date(),
      }),
    ).toBe(false);
  });

  it("an app process killed -9 in the middle of sending loses nothing: the restarted deliverer sends every alert once", async () => {
    await disableAll();
    // The first process's requests hang (it dies waiting); after the restart the receiver answers.
    let up = false;
    const hook = await receiver(() => (up ? 200 : "hang"));
    const { channel: ch } = await channel(hook.url);
    const loopId = await newLoop();
    await inTransaction(db().prisma, (tx) => appendEvents(tx, eventsOfEveryKind(loopId)));

    const child = spawn(
      process.execPath,
      ["--import", "tsx", join(process.cwd(), "test/fixtures/alert-deliverer-process.ts")],
      {
        env: {
          ...inheritedEnv(["PATH", "HOME"]),
          NODE_ENV: "test",
          DATABASE_URL: db().target.url,
          RALPH_DATA_DIR: mkdtempSync(join(tmpdir(), "ralph-deliverer-")),
          RALPH_SECRET_KEY: keyBytes.toString("base64"),
          RALPH_ALERT_ALLOW_HOSTS: "127.0.0.1",
          RALPH_PUBLIC_URL: "https://ralph.example",
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    child.stdout!.on("data", (d) => (output += d));
    child.stderr!.on("data", (d) => (output += d));
    const exited = new Promise((resolve) => child.on("exit", resolve));
    const until = Date.now() + 30_000;
    while (hook.requests.length < ALERT_KINDS.length && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(hook.requests.length, output).toBe(ALERT_KINDS.length);
    child.kill("SIGKILL");
    await exited;
    // Every row is still pending, held by the dead process's lease.
    const held = await db().prisma.alertDelivery.findMany({ where: { channelId: ch.id } });
    expect(held.map((r) => [r.status, r.attempts, r.leaseOwner?.startsWith("app-")])).toEqual(
      held.map(() => ["pending", 0, true]),
    );

    up = true;
    // The restarted app, once the dead lease has run out (the clock moved on).
    await drain(deps({ now: () => Date.now() + 60_000 }));
    const delivered = hook.requests.filter((r) => r.status === 200);
    expect(delivered.map((r) => r.json.kind).sort()).toEqual([...ALERT_KINDS].sort());
    expect(hook.accepted.size).toBe(ALERT_KINDS.length);
    // The body sent after the restart is the one the dead process built and stored first.
    for (const r of delivered) {
      const first = hook.requests.find(
        (q) => q.status === "hung" && q.headers["idempotency-key"] === r.headers["idempotency-key"],
      );
      expect(first?.body).toBe(r.body);
    }
  }, 60_000);
});

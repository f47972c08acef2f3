// Web Push notices end to end on the server, on both databases: a real
// encrypted push reaches a local push service, which checks the VAPID
// signature and decrypts the body with the subscription's own keys; the
// user's mutes hold; a revoked subscription (410) is removed and never
// retried; other failures back off a bounded number of times.
import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { alertHarness, key } from "../../test/alert-harness";
import { describeEachProvider } from "../../test/db-providers";
import { browserSubscription, startPushService } from "../../test/push-service";
import { appendEvents } from "../db/events.repo";
import { inTransaction } from "../db/tx";
import { resolveVapidKeys } from "../secrets/vapid-keys";
import { setNoticeMute, subscribePush } from "./notices.service";
import type { PushNotice } from "./push-notice";

const dataDir = mkdtempSync(join(tmpdir(), "ralph-vapid-"));
const QUESTION = "Should add() also accept strings? Please confirm before I change it.";

describeEachProvider("web push notices", ({ db }) => {
  const { deps, newLoop, drain, disableAll } = alertHarness(db);
  const vapid = resolveVapidKeys(dataDir);
  const pushDeps = () => deps({ vapid });

  const newUser = async () => {
    const id = randomUUID();
    await db().prisma.user.create({ data: { id, email: `${id}@test`, role: "operator" } });
    return { id, name: `${id}@test` };
  };
  const subscribe = async (user: { id: string; name: string }, endpoint: string) => {
    const browser = browserSubscription(endpoint);
    await subscribePush(db(), key, user, browser.json, { newId: randomUUID, allowHosts: ["127.0.0.1"] });
    return browser;
  };
  const emit = (loopId: string, type: string, payload: object) =>
    inTransaction(db().prisma, (tx) => appendEvents(tx, [{ loopId, type, payload }]));

  it("the VAPID keys are generated once and kept", () => {
    expect(resolveVapidKeys(dataDir)).toEqual(vapid);
    expect(Buffer.from(vapid.publicKey, "base64url")).toHaveLength(65);
  });

  it("a Question reaches the subscription encrypted, with its class, loop name, excerpt and deep link", async () => {
    await disableAll();
    const service = await startPushService();
    const user = await newUser();
    const browser = await subscribe(user, `${service.origin}/push/${randomUUID()}`);
    const loopId = await newLoop("Nightly refactor");
    await emit(loopId, "attention_needed", { question: QUESTION });
    await drain(pushDeps());
    await service.close();

    expect(service.requests).toHaveLength(1);
    const [req] = service.requests;
    expect(req!.vapid).toEqual({ publicKey: vapid.publicKey });
    expect(req!.headers["content-encoding"]).toBe("aes128gcm");
    expect(req!.headers.urgency).toBe("high");
    // Encrypted: the question is not on the wire in clear.
    expect(req!.body.toString("latin1")).not.toContain("accept strings");
    const notice = JSON.parse(browser.decrypt(req!.body)) as PushNotice;
    expect(notice).toMatchObject({
      class: "question",
      loopId,
      loopName: "Nightly refactor",
      excerpt: QUESTION,
      title: "Question: Nightly refactor",
      body: QUESTION,
      url: `https://ralph.example/loops/${loopId}?answer=1#answer`,
    });
    const row = await db().prisma.alertDelivery.findFirstOrThrow({ where: { loopId } });
    expect(row).toMatchObject({ status: "delivered", attempts: 1, lastStatus: 201 });
  });

  it("a user's mutes (one class on one loop, or a class everywhere) silence only their own subscriptions", async () => {
    await disableAll();
    const service = await startPushService();
    const [muter, other] = [await newUser(), await newUser()];
    const mine = await subscribe(muter, `${service.origin}/push/mine`);
    const theirs = await subscribe(other, `${service.origin}/push/theirs`);
    const loopId = await newLoop("Muted loop");
    await setNoticeMute(db(), muter, { loopId, class: "question", muted: true });
    await setNoticeMute(db(), muter, { loopId: null, class: "budget", muted: true });
    await emit(loopId, "attention_needed", { question: "Which port?" });
    await emit(loopId, "budget_alert", { action: "ALERT_ONLY", usedFraction: 0.8 });
    await emit(loopId, "halted", { stopType: "max_iterations", status: "stopped" });
    await drain(pushDeps());
    await service.close();
    const got = (path: string, browser: typeof mine) =>
      service.requests
        .filter((r) => r.path === path)
        .map((r) => (JSON.parse(browser.decrypt(r.body)) as PushNotice).class);
    expect(got("/push/mine", mine)).toEqual(["done"]);
    expect(got("/push/theirs", theirs).sort()).toEqual(["budget", "done", "question"]);
  });

  it("410 from the push service removes the subscription at once; a 500 is retried a bounded number of times", async () => {
    await disableAll();
    const gone = await startPushService(() => 410);
    const user = await newUser();
    await subscribe(user, `${gone.origin}/push/revoked`);
    const loopId = await newLoop("Revoked");
    await emit(loopId, "attention_needed", { question: "Anyone there?" });
    await drain(pushDeps());
    await emit(loopId, "attention_needed", { question: "Still there?" });
    await drain(pushDeps());
    await gone.close();
    // One attempt, no retry; the subscription is gone so the second notice has nowhere to go.
    expect(gone.requests.map((r) => r.status)).toEqual([410]);
    expect(await db().prisma.alertChannel.count({ where: { kind: "webpush", createdById: user.id } })).toBe(0);

    const down = await startPushService(() => 500);
    await subscribe(user, `${down.origin}/push/flaky`);
    await emit(loopId, "attention_needed", { question: "And now?" });
    await drain(pushDeps());
    await down.close();
    // maxAttempts is 5 in the harness' policy: five tries, then dead, and the subscription stays.
    expect(down.requests.map((r) => r.status)).toEqual([500, 500, 500, 500, 500]);
    const row = await db().prisma.alertDelivery.findFirstOrThrow({ where: { loopId, status: "dead" } });
    expect(row).toMatchObject({ attempts: 5, lastStatus: 500, lastError: "HTTP 500" });
    expect(await db().prisma.alertChannel.count({ where: { kind: "webpush", createdById: user.id } })).toBe(1);
  });
});

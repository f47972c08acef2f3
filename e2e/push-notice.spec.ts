// Done-when 4 of issue 35, in real Chromium: a "Question" push notice with a
// deep link that opens the loop's answer box.
//
// What runs for real: the server (next start) raises the notice for a real
// asking agent and sends a real encrypted Web Push (VAPID-signed, aes128gcm)
// to a local push service (test/push-service.ts), which decrypts it with the
// subscription's keys; the app's real service worker (public/sw.js), registered
// by the page, receives that exact payload as a real push event through the
// DevTools protocol (ServiceWorker.deliverPushMessage), shows the notification,
// and its click path opens the deep link, where the answer box is focused.
//
// What cannot run here: Chromium's own PushManager.subscribe. It registers with
// Google's push service (GCM/FCM: checkin, registration, then MCS delivery),
// which this offline machine cannot reach; headless Chromium here answers
// "AbortError: Registration failed - permission denied" even with the
// permission granted. So the subscription's keys are made by the test, in the
// role of the browser, and handed to the server through the same API the
// "Turn on push notices" button uses.
import { chmodSync, copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { browserSubscription, startPushService } from "../test/push-service";
import { signIn, trpc } from "./support/auth";

const root = mkdtempSync(join(tmpdir(), "ralph-e2e-push-"));
const QUESTION = "Should add() also accept strings? Please confirm before I change it.";
let service: Awaited<ReturnType<typeof startPushService>>;
test.beforeAll(async () => {
  service = await startPushService();
});
test.afterAll(async () => {
  await service.close();
  rmSync(root, { recursive: true, force: true });
});

test("a Question push notice shows in the real service worker and its link opens the loop's answer box", async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(120_000);
  copyFileSync(join(process.cwd(), "server/agents/fixtures/asking-agent.sh"), join(root, "asking-agent.sh"));
  chmodSync(join(root, "asking-agent.sh"), 0o755);
  await context.grantPermissions(["notifications"], { origin: baseURL });
  await signIn(page, "operator");

  // The service worker the layout registers, controlling the page.
  await page.goto("/inbox");
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.reload();
  expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toMatch(/\/sw\.js$/);
  // Chromium's own subscription needs Google's push service: recorded, not relied on.
  const vapid = await trpc(page.request, "notices.pushKey", undefined, "query");
  const own = await page.evaluate(
    async (publicKey) => {
      const registration = await navigator.serviceWorker.ready;
      return registration.pushManager
        .subscribe({ userVisibleOnly: true, applicationServerKey: publicKey })
        .then(() => "subscribed")
        .catch((e: Error) => `${e.name}: ${e.message}`);
    },
    (vapid.data as { publicKey: string }).publicKey,
  );
  test.info().annotations.push({ type: "chromium PushManager.subscribe", description: own });

  const browser = browserSubscription(`${service.origin}/push/e2e`);
  const subscribed = await trpc(page.request, "notices.subscribe", browser.json);
  expect(subscribed.status, JSON.stringify(subscribed.error)).toBe(200);

  const created = await trpc(page.request, "loops.create", {
    name: "Push e2e loop",
    goal: "Make ./test.sh pass",
    workspace: root,
    agent: { kind: "command", argv: ["./asking-agent.sh"], timeoutSeconds: 30 },
    loop: { stop: { maxIterations: 3, noProgressIterations: 0 }, completion: { allowNoEvidence: true } },
    start: true,
  });
  expect(created.status, JSON.stringify(created.error)).toBe(200);
  const loopId = (created.data as { id: string }).id;

  // The server's encrypted push, decrypted with the subscription's keys.
  let payload = "";
  await expect
    .poll(
      () => {
        for (const r of service.requests) {
          const text = browser.decrypt(r.body);
          if ((JSON.parse(text) as { class: string }).class === "question") payload = text;
        }
        return payload !== "";
      },
      { timeout: 60_000 },
    )
    .toBe(true);
  expect(JSON.parse(payload)).toMatchObject({ class: "question", loopName: "Push e2e loop", excerpt: QUESTION });

  // That exact payload, as a push event in the real service worker.
  const cdp = await context.newCDPSession(page);
  const registrationId = new Promise<string>((resolve) =>
    cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
      const ours = registrations.find((r) => r.scopeURL === `${baseURL}/` && !r.isDeleted);
      if (ours) resolve(ours.registrationId);
    }),
  );
  await cdp.send("ServiceWorker.enable");
  await cdp.send("ServiceWorker.deliverPushMessage", {
    origin: baseURL!,
    registrationId: await registrationId,
    data: payload,
  });
  const shown = async () =>
    page.evaluate(async () =>
      (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
        title: n.title,
        body: n.body,
        tag: n.tag,
        data: n.data as { url: string; class: string },
      })),
    );
  await expect.poll(async () => (await shown()).length, { timeout: 10_000 }).toBe(1);
  const [notification] = await shown();
  expect(notification).toMatchObject({
    title: "Question: Push e2e loop",
    body: QUESTION,
    data: { class: "question" },
  });
  expect(new URL(notification!.data.url).pathname + new URL(notification!.data.url).search).toBe(
    `/loops/${loopId}?answer=1`,
  );

  // The click path: the worker's own openNotice (what notificationclick runs) navigates this tab.
  await page.evaluate(
    (tag) => navigator.serviceWorker.controller!.postMessage({ type: "open-notice", tag }),
    notification!.tag,
  );
  await page.waitForURL(`**/loops/${loopId}?answer=1#answer`);
  const panel = page.getByTestId("pending-question");
  await expect(panel.getByTestId("agent-question")).toHaveText(QUESTION);
  await expect(panel.getByLabel("Your answer")).toBeFocused();
  // Clicking took the notification away.
  expect(await shown()).toHaveLength(0);

  // The inbox groups it under the loop, as a Question linking to the answer box.
  await page.goto("/inbox");
  const group = page.getByTestId("inbox-group").filter({ hasText: "Push e2e loop" });
  const notice = group.locator('[data-testid="notice"][data-class="question"]').first();
  await expect(notice).toContainText("Question");
  await expect(notice.getByRole("link")).toHaveAttribute("href", `/loops/${loopId}?answer=1#answer`);
});

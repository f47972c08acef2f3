// Flow 1: create a demo loop from the form, watch the score and cost charts
// fill live, interrupt (interrupting… then paused), resume, force a handoff
// (a marker appears), nudge (the message reaches the agent's next input).
import { expect, test } from "@playwright/test";
import { signIn, trpc } from "./support/auth";
import { chartPoints, control, expectStatus, shot } from "./support/loops";

test("a demo loop from the form: live charts, interrupt, resume, handoff, nudge", async ({ page }) => {
  test.setTimeout(150_000);
  await signIn(page, "operator");

  // The generated form: pick the template, then change fields through their labels.
  await page.goto("/loops/new");
  await page.getByRole("radio", { name: "Demo (no keys)" }).check();
  await page.getByLabel(/^Goal/).fill("Write an e2e runbook for the live dashboard flow");
  // Slow enough to see "interrupting…", long enough not to finish mid-test.
  await page.getByLabel(/Pretend work time per iteration/).fill("2000");
  await page.getByLabel(/Productive iterations needed to finish/).fill("40");
  await page.getByLabel(/Share of calls that fail/).fill("0");
  await page.getByLabel("Maximum iterations").fill("60");
  await page.getByLabel(/Iterations without progress before stopping/).fill("0");
  await shot(page, "new-loop-form");
  await page.getByRole("button", { name: "Create and start loop" }).click();
  await page.waitForURL(/\/loops\/[0-9a-f-]{36}$/);
  await expect(page.getByText("Write an e2e runbook for the live dashboard flow").first()).toBeVisible();

  // Charts fill live, without reloading the page.
  await expect.poll(() => chartPoints(page, "score-chart"), { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
  const before = await chartPoints(page, "score-chart");
  await expect.poll(() => chartPoints(page, "score-chart"), { timeout: 15_000 }).toBeGreaterThan(before);
  await expect.poll(() => chartPoints(page, "cost-chart")).toBeGreaterThanOrEqual(2);
  await shot(page, "loop-detail-running");

  // Interrupt: an honest in-between state, then paused at the iteration's end.
  await control(page, "Interrupt");
  await expectStatus(page, "interrupting…", 5_000);
  await expectStatus(page, "paused", 15_000);
  const pausedAt = await chartPoints(page, "score-chart");
  // Paused: Interrupt no longer applies, so the bar offers no Interrupt to press (it waits in More).
  await expect(
    page.getByRole("toolbar", { name: "Loop controls" }).getByRole("button", { name: /^Interrupt/, disabled: false }),
  ).toHaveCount(0);

  // Resume (keyboard shortcut r, which asks first): it runs again and the chart grows.
  await page.keyboard.press("r");
  await expect(page.getByRole("dialog", { name: /^Resume/ }).getByRole("button", { name: "Resume" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expectStatus(page, /running|queued/, 10_000);
  await expect.poll(() => chartPoints(page, "score-chart"), { timeout: 15_000 }).toBeGreaterThan(pausedAt);

  // Force a handoff: the next iteration starts fresh and every chart marks it.
  await control(page, "Force handoff");
  // It cannot be taken back: the button asks first, as its shortcut does.
  const confirmHandoff = page.getByRole("dialog", { name: /^Force a fresh-context handoff/ });
  await expect(confirmHandoff).toContainText("what the agent carried over is dropped");
  await confirmHandoff.getByRole("button", { name: "Force a fresh-context handoff" }).click();
  await expect(page.getByTestId("handoff-marker").first()).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId("handoff-marker").first()).toContainText("explicit request");
  await expect(page.getByTestId("health-marker-handoff").first()).toBeVisible();

  // Nudge with a message: it is recorded and lands in a later iteration's input.
  await control(page, "Nudge");
  await page.getByRole("dialog").getByLabel("Message").fill("Cover the rollback drill first");
  await page.getByRole("dialog").getByRole("button", { name: "Send nudge" }).click();
  await expect(page.getByRole("dialog")).toBeHidden();
  await expect
    .poll(
      async () => {
        // Pin the newest iteration by number: a newer one may arrive while we look.
        const n = await page.getByTestId("iteration").first().getAttribute("data-number");
        const latest = page.locator(`[data-testid="iteration"][data-number="${n}"]`).first();
        const toggle = latest.getByRole("button").first();
        if ((await toggle.getAttribute("aria-expanded")) !== "true") await toggle.click();
        return (
          (await latest
            .getByLabel(`Input of iteration ${n}`)
            .textContent({ timeout: 2_000 })
            .catch(() => "")) ?? ""
        );
      },
      { timeout: 30_000 },
    )
    .toContain("Cover the rollback drill first");
  await page.getByRole("tab", { name: "Audit log" }).click();
  await expect(page.getByTestId("audit-row").filter({ hasText: "nudge" }).first()).toBeVisible();
  await shot(page, "loop-detail-audit");

  // An event is on screen within 300 ms of being committed: a control sent from
  // elsewhere (another operator, the API) shows up in the open audit log.
  const id = page.url().split("/").at(-1)!;
  await page.evaluate(() => {
    const w = window as unknown as { seenAt?: number };
    new MutationObserver((_, observer) => {
      if (
        [...document.querySelectorAll("[data-testid=audit-row]")].some((r) => r.textContent?.includes("latency probe"))
      ) {
        w.seenAt = Date.now();
        observer.disconnect();
      }
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
  const sent = await trpc(page.request, "loops.controls.nudge", { id, message: "keep going", reason: "latency probe" });
  const committedAt = Date.now();
  expect(sent.status).toBe(200);
  await page.waitForFunction(() => (window as unknown as { seenAt?: number }).seenAt !== undefined, null, {
    timeout: 5_000,
  });
  const seenAt = await page.evaluate(() => (window as unknown as { seenAt: number }).seenAt);
  test.info().annotations.push({ type: "event-to-screen", description: `${seenAt - committedAt} ms` });
  expect(seenAt - committedAt, "ms from commit to screen").toBeLessThan(300);

  // Keyboard help, then stop the loop (destructive: confirm and give a reason).
  await page.keyboard.press("?");
  await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeVisible();
  await page.keyboard.press("Escape");
  await control(page, "Terminate");
  const confirm = page.getByRole("dialog", { name: "Terminate this loop?" });
  await confirm.getByRole("button", { name: "Terminate" }).click();
  await expect(confirm.getByText("is required")).toBeVisible();
  await confirm.getByLabel(/Reason/).fill("flow 1 done");
  await confirm.getByRole("button", { name: "Terminate" }).click();
  await expectStatus(page, "stopped", 20_000);
  await expect(page.getByTestId("stop-reason")).toContainText("terminated by an operator");
});

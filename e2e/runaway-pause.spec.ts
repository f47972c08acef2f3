// A runaway, stopped by policy: a fast demo loop passes its runaway limit; the
// server raises the alarm (the page's header shows it), and with
// `alarms.runaway.action: "pause"` the loop is paused by the alarm, which the
// audit log names as the one who did it and why.
import { expect, test } from "@playwright/test";
import { signIn, trpc } from "./support/auth";
import { attachShot, watchConsole } from "./support/evidence";
import { expectStatus } from "./support/loops";

declare global {
  interface Window {
    headerAlarms?: string[];
  }
}

test("a fast loop raises the runaway alarm and, with action pause, is paused", async ({ page }) => {
  test.setTimeout(120_000);
  const consoleProblems = watchConsole(page);
  await signIn(page, "operator");
  const created = await trpc(page.request, "loops.create", {
    goal: "Spin faster than anyone should",
    // ~2 iterations a second: past 5 in a minute within seconds, and far from its 50 steps to finish.
    agent: { kind: "demo", delayMs: 500, failureRate: 0, earlyClaimRate: 0, stepsToComplete: 50 },
    loop: {
      stop: { maxIterations: 2_000, noProgressIterations: 0 },
      completion: { allowNoEvidence: true },
      alarms: { runaway: { maxIterations: 5, windowSeconds: 60, action: "pause" } },
    },
    start: true,
  });
  expect(created.status, JSON.stringify(created.error)).toBe(200);
  const id = (created.data as { id: string }).id;
  await page.goto(`/loops/${id}`);
  await expect(page.getByTestId("iteration-count")).toBeVisible();
  // The alarm may show only for the moment between its rise and the pause: record every text the header's alarms had.
  await page.evaluate(() => {
    window.headerAlarms = [];
    new MutationObserver(() => {
      const text = document.querySelector("[data-testid=header-alarms]")?.textContent;
      if (text && window.headerAlarms!.at(-1) !== text) window.headerAlarms!.push(text);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });

  await expectStatus(page, "paused", 60_000);
  const seen = await page.evaluate(() => window.headerAlarms ?? []);
  expect(seen.join(" | ")).toMatch(/Runaway: \d+ iterations in the last 60 s \(limit 5\)/);
  const iterations = Number((await page.getByTestId("iteration-count").textContent())?.split("/")[0]);
  expect(iterations).toBeGreaterThan(5);
  await attachShot(page, "runaway-paused");

  // Who paused it and why, in the audit log.
  await page.getByRole("tab", { name: "Audit log" }).click();
  await expect(
    page
      .getByTestId("audit-row")
      .filter({ hasText: /runaway alarm: \d+ iterations/i })
      .first(),
  ).toBeVisible();
  await expect(page.getByTestId("audit-row").filter({ hasText: "pausing the loop" }).first()).toBeVisible();
  await expect(page.locator('[data-testid=audit-row][data-type="control_applied"]').first()).toContainText(/alarm/i);
  await attachShot(page, "runaway-audit");

  // Paused means paused: no iteration is added afterwards.
  await page.waitForTimeout(2_000);
  await expect(page.getByTestId("iteration-count")).toContainText(`${iterations} /`);
  await trpc(page.request, "loops.controls.terminate", { id, reason: "runaway spec done" });
  expect(consoleProblems()).toEqual([]);
});

// The loop list on a phone does not jump while its late parts arrive
// (hydration, live rows, badges, sparklines). CLS is a ratio of the viewport,
// not a timing, so it is asserted here; the bench prints the figure.
import { expect, test } from "@playwright/test";
import { demoLoop } from "./support/a11y";
import { signIn, trpc } from "./support/auth";
import { cumulativeLayoutShift, recordLayoutShifts } from "./support/layout-shift";

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

test("the loop list at 390 px settles with a layout shift under 0.1", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, "operator");
  for (const n of [1, 2, 3]) await demoLoop(page.request, `Layout shift, finished ${n}`, true);
  const running = await demoLoop(page.request, "Layout shift, running", false);

  await recordLayoutShifts(page);
  await page.goto("/");
  await expect(page.getByTestId("loop-card").first()).toBeVisible();
  // Live rows and refetches land after the first paint; give them a few rounds.
  await expect(page.getByTestId("loop-card").getByTestId("running-line").first()).toBeVisible({ timeout: 30_000 });
  await page.waitForTimeout(4000);
  const cls = await cumulativeLayoutShift(page);
  console.log(`list CLS at 390 px: ${cls.toFixed(4)}`);
  expect(cls).toBeLessThan(0.1);

  await trpc(page.request, "loops.controls.terminate", { id: running, reason: "test over" });
});

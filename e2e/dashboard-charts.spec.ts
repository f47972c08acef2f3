// The dashboard pieces an operator reads at a glance, in the browser: the
// list's summary bar, the alarm in the loop header, charts on a range that
// fits the spend (x to the last iteration, budget off scale), score per
// dollar, the health lane, a control bar with only the valid controls and
// the rest in a keyboard menu, iteration rows with time, tokens and the
// first error line, and the per-iteration trace waterfall.
import { expect, test, type Page } from "@playwright/test";
import { signIn, trpc } from "./support/auth";
import { chartPoints, createLoopFromForm, expectStatus, shot, steadyDemo } from "./support/loops";

const toolbar = (page: Page) => page.getByRole("toolbar", { name: "Loop controls" });

/** The largest x tick a chart draws (Recharts' axis tick text). */
async function lastXTick(page: Page, testId: string): Promise<number> {
  const ticks = await page
    .getByTestId(testId)
    .locator(".recharts-xAxis .recharts-cartesian-axis-tick-value")
    .allTextContents();
  return Math.max(...ticks.map(Number).filter(Number.isFinite));
}

test("summary bar, header alarm, fitted charts, control menu, rich iteration rows and the trace", async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, "operator");
  const id = await createLoopFromForm(
    page,
    "Demo (no keys)",
    steadyDemo(
      { delayMs: 300, stepsToComplete: 40, earlyClaimRate: 0, failureRate: 0.35 },
      {
        stop: { maxIterations: 80, scoreThreshold: 0, noProgressIterations: 0, maxConsecutiveFailures: 50 },
        completion: { evidence: ["score"], allowNoEvidence: true },
        retry: { maxAttempts: 1 },
        budget: { maxCostUsd: 20 },
        // A low runaway limit, so the header's alarm shows within a few iterations.
        alarms: { runaway: { maxIterations: 3, windowSeconds: 120, action: "alert" } },
      },
    ),
  );
  await expectStatus(page, /running/, 30_000);

  // The alarm the server judges, in the loop's header (not only in the list).
  await expect(page.getByTestId("header-alarms")).toContainText("Runaway", { timeout: 60_000 });

  // Enough iterations for the charts, and at least one that failed with an error.
  await expect.poll(() => chartPoints(page, "cost-chart"), { timeout: 60_000 }).toBeGreaterThanOrEqual(6);
  // The timeline is below the fold: scrolled to, as a reader would (a running loop's timeline
  // follows its iterations only while in view), the failed iteration's row shows there.
  await page.getByTestId("iteration-timeline").scrollIntoViewIfNeeded();
  await expect(page.getByTestId("iteration-error-line").first()).toBeVisible({ timeout: 60_000 });

  // The x axis runs to the last iteration (plus headroom), not to the limit of 80.
  const iterations = await chartPoints(page, "cost-chart");
  expect(await lastXTick(page, "cost-chart")).toBeLessThan(Math.max(20, iterations * 2));
  expect(await lastXTick(page, "score-chart")).toBeLessThan(Math.max(20, iterations * 2));
  // A $20 budget is far above the spend: named off scale, not a line that flattens the spend.
  await expect(page.getByTestId("budget-off-scale")).toHaveText(/budget \$20(\.00)? ↑ off scale/);
  await expect(page.getByTestId("forecast-end")).toContainText("forecast ≈");
  await expect(page.getByTestId("score-per-dollar")).toContainText("per $");
  await expect(page.getByTestId("health-timeline")).toBeVisible();

  // Each chart's legend stays inside its card, on a desktop and on a phone (it started left of the
  // card, past its edge, where a chart tucks its y axis in with a negative margin).
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    for (const chart of ["score-chart", "cost-chart", "token-chart"]) {
      const card = page.getByTestId(chart);
      await card.scrollIntoViewIfNeeded();
      const legend = card.locator(".recharts-legend-wrapper");
      await expect(legend).toBeVisible();
      const [c, l] = [(await card.boundingBox())!, (await legend.boundingBox())!];
      expect(l.x, `${chart} legend at ${width} px`).toBeGreaterThanOrEqual(c.x);
      expect(l.x + l.width, `${chart} legend at ${width} px`).toBeLessThanOrEqual(c.x + c.width);
      expect(l.y + l.height, `${chart} legend at ${width} px`).toBeLessThanOrEqual(c.y + c.height);
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.evaluate(() => window.scrollTo(0, 0));

  // Only valid controls are buttons; the rest are in the menu, with their reasons.
  await expect(toolbar(page).getByRole("button", { name: /^Interrupt/ })).toBeVisible();
  await expect(toolbar(page).getByRole("button", { name: /^Resume/ })).toHaveCount(0);
  await expect(toolbar(page).getByRole("button", { name: /^Approve/ })).toHaveCount(0);
  const more = page.getByTestId("more-controls");
  await more.focus();
  await page.keyboard.press("Enter");
  const menu = page.getByRole("menu", { name: "More controls" });
  await expect(menu).toBeVisible();
  await expect(menu.getByRole("menuitem").first()).toBeFocused();
  await expect(menu.getByRole("menuitem", { name: /^Resume/ })).toHaveAttribute("aria-disabled", "true");
  await page.keyboard.press("ArrowDown");
  await expect(menu.getByRole("menuitem").nth(1)).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();
  await expect(more).toBeFocused();

  // Iteration rows: start time, tokens, and the first line of an error inline.
  const row = page.getByTestId("iteration").first();
  await expect(row.getByTestId("iteration-time")).toHaveText(/\d/);
  await expect(row.getByTestId("iteration-tokens")).toHaveText(/\d+ in · \d+ out/);

  // The trace waterfall of an iteration that answered: the agent, then each of the two scorers.
  const succeeded = page.getByTestId("iteration").filter({ hasNot: page.getByTestId("iteration-error-line") });
  await succeeded.first().getByRole("button").first().click();
  const trace = page.getByTestId("trace-waterfall").first();
  await expect(trace).toBeVisible();
  await expect(trace.locator("[data-testid=trace-span][data-kind=agent]")).toHaveCount(1);
  await expect(trace.locator("[data-testid=trace-span][data-kind=scorer]")).toHaveCount(2);
  await shot(page, "dashboard-charts-detail");

  // The list: counts by status, spend today, approvals waiting, needs attention.
  await page.goto("/");
  const summary = page.getByTestId("list-summary");
  await expect(summary).toBeVisible();
  await expect(summary.getByTestId("summary-status-running")).toHaveText(/running \d+/);
  await expect(summary.getByTestId("summary-spend-today")).toHaveText(/^\$/);
  await expect(summary.getByTestId("summary-approvals")).toHaveText(/^\d+$/);
  await expect(summary.getByTestId("summary-attention")).toHaveText(/^\d+$/);
  // A status chip filters the list.
  await summary.getByTestId("summary-status-running").click();
  await expect(page).toHaveURL(/status=running/);
  await expect(summary.getByTestId("summary-status-running")).toHaveAttribute("aria-pressed", "true");
  await shot(page, "dashboard-charts-list");

  const stopped = await trpc(page.request, "loops.controls.terminate", { id, reason: "dashboard-charts done" });
  expect(stopped.status).toBe(200);
});

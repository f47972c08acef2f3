// A long loop in the browser: zooming into the score chart (with the form a
// keyboard reaches, and by dragging across it) draws the server's window of
// iterations at full resolution, and a long timeline mounts only the rows near
// the viewport while every row stays reachable by scrolling and by Tab.
import { expect, test, type Page } from "@playwright/test";
import { signIn } from "./support/auth";
import { chartPoints, createLoopFromForm, steadyDemo } from "./support/loops";

const ITERATIONS = 90;
const timeline = (page: Page) => page.getByRole("list", { name: "Iterations, newest first" });

test("score chart zoom reads a window from the server; a long timeline is windowed and stays reachable", async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signIn(page, "operator");
  await createLoopFromForm(
    page,
    "Demo (no keys)",
    steadyDemo(
      { delayMs: 0, stepsToComplete: 50, earlyClaimRate: 0 },
      {
        stop: { maxIterations: ITERATIONS, scoreThreshold: 0, noProgressIterations: 0, maxConsecutiveFailures: 50 },
        completion: { evidence: ["score"], allowNoEvidence: true },
        retry: { maxAttempts: 1 },
        budget: { maxCostUsd: 100 },
      },
    ),
  );
  await expect
    .poll(() => chartPoints(page, "score-chart"), { timeout: 180_000, intervals: [1000] })
    .toBeGreaterThanOrEqual(ITERATIONS);

  // Zoom with the form: one request for the window, every iteration of it drawn, the axis inside it.
  const zoom = page.getByRole("form", { name: "Zoom the score chart" });
  const request = page.waitForRequest((r) => r.url().includes("loops.series"));
  await zoom.getByLabel("First iteration").fill("20");
  await zoom.getByLabel("Last iteration").fill("29");
  await zoom.getByRole("button", { name: "Zoom" }).click();
  expect(decodeURIComponent((await request).url())).toMatch(/"from":20,"to":29/);
  await expect(page.getByTestId("score-zoom")).toHaveAttribute("data-zoom", "20-29");
  await expect.poll(() => chartPoints(page, "score-chart")).toBe(10);
  await expect(zoom).toContainText("#20–#29, every iteration");
  const ticks = (
    await page
      .getByTestId("score-chart")
      .locator(".recharts-xAxis .recharts-cartesian-axis-tick-value")
      .allTextContents()
  ).map(Number);
  expect(Math.min(...ticks)).toBeGreaterThanOrEqual(20);
  expect(Math.max(...ticks)).toBeLessThanOrEqual(29);

  // Back to the whole loop, then zoom by dragging across the chart.
  await zoom.getByRole("button", { name: "Whole loop" }).click();
  await expect(page.getByTestId("score-zoom")).not.toHaveAttribute("data-zoom", /./);
  await expect.poll(() => chartPoints(page, "score-chart")).toBeGreaterThanOrEqual(ITERATIONS);
  const surface = page.getByTestId("score-chart").locator(".recharts-cartesian-grid");
  await surface.scrollIntoViewIfNeeded();
  const box = (await surface.boundingBox())!;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width * 0.3, y);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.45, y, { steps: 5 });
  await page.mouse.move(box.x + box.width * 0.6, y, { steps: 5 });
  await page.mouse.up();
  await expect(page.getByTestId("score-zoom")).toHaveAttribute("data-zoom", /^\d+-\d+$/);
  const [from, to] = (await page.getByTestId("score-zoom").getAttribute("data-zoom"))!.split("-").map(Number);
  expect(to! - from!).toBeGreaterThan(5);
  expect(to! - from!).toBeLessThan(ITERATIONS);
  await expect.poll(() => chartPoints(page, "score-chart")).toBe(to! - from! + 1);

  // The timeline: a page of rows, then older pages until it is long enough to be windowed.
  const list = timeline(page);
  await expect(list.getByTestId("iteration").first()).toHaveAttribute("data-number", String(ITERATIONS));
  for (let i = 0; i < 3; i++) {
    const rows = Number(await list.getAttribute("data-rows"));
    await page.getByRole("button", { name: "Load older iterations" }).click();
    await expect(list).not.toHaveAttribute("data-rows", String(rows));
  }
  await expect(list).toHaveAttribute("data-rows", "80");
  await expect(list).toHaveAttribute("data-windowed", "true");
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect.poll(() => list.getByTestId("iteration").count()).toBeLessThan(80);

  // Tab moves from row to row, and Enter still expands one.
  const newest = list.locator(`[data-number="${ITERATIONS}"] > button`);
  await newest.focus();
  await page.keyboard.press("Tab");
  await expect(page.locator(":focus")).toHaveAttribute("aria-expanded", "false");
  expect(await page.evaluate(() => document.activeElement?.closest("li")?.getAttribute("data-number"))).toBe(
    String(ITERATIONS - 1),
  );
  await page.keyboard.press("Enter");
  await expect(page.locator(":focus")).toHaveAttribute("aria-expanded", "true");

  // Scrolled to the end, the oldest loaded row is mounted, with its place among all of them.
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  const oldest = list.locator(`[data-number="${ITERATIONS - 79}"]`);
  await expect(oldest).toBeVisible();
  await expect(oldest).toHaveAttribute("aria-posinset", "80");
  await expect(oldest).toHaveAttribute("aria-setsize", "80");
  await expect(list.locator(`[data-number="${ITERATIONS}"]`)).toHaveCount(0);
});

// Flow 5: list filters live in the URL and survive a reload; at 375 px no
// page scrolls sideways. Also takes the screenshots of the main pages. Runs
// after dashboard-live.spec.ts, whose stopped "runbook" loop it filters for.
import { expect, test } from "@playwright/test";
import { signIn } from "./support/auth";
import { noHorizontalScroll, shot } from "./support/loops";

test("filters survive a reload through the URL", async ({ page }) => {
  await signIn(page, "operator");
  await page.goto("/");
  await page.getByRole("searchbox", { name: "Search goals and names" }).fill("runbook");
  await page.getByRole("search").locator("summary", { hasText: "Status" }).click();
  await page.getByRole("checkbox", { name: "stopped" }).check();
  await page.getByRole("search").locator("summary", { hasText: "Agent" }).click();
  await page.getByRole("checkbox", { name: "demo" }).check();
  await page.getByRole("combobox", { name: "Sort by" }).selectOption("cost");
  await expect(page).toHaveURL(/status=stopped/);
  await expect(page).toHaveURL(/agent=demo/);
  await expect(page).toHaveURL(/q=runbook/);
  await expect(page).toHaveURL(/sort=cost/);

  await page.reload();
  await expect(page.getByRole("searchbox", { name: "Search goals and names" })).toHaveValue("runbook");
  await expect(page.getByRole("combobox", { name: "Sort by" })).toHaveValue("cost");
  await page.getByRole("search").locator("summary", { hasText: "Status" }).click();
  await expect(page.getByRole("checkbox", { name: "stopped" })).toBeChecked();
  const rows = page.getByTestId("loop-row");
  await expect(rows.first()).toContainText("e2e runbook");
  for (const row of await rows.all()) await expect(row).toContainText("stopped");
  await shot(page, "loops-filtered");

  await page.getByRole("button", { name: "Clear filters" }).first().click();
  await expect(page).not.toHaveURL(/status=/);
});

test("the main pages fit 375 px without horizontal scroll, light and dark", async ({ page }) => {
  await signIn(page, "operator");
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto("/");
  await expect(page.getByTestId("loop-card").first()).toBeVisible();
  await noHorizontalScroll(page);
  await shot(page, "loops-375");
  const href = await page.getByTestId("loop-card").first().getByRole("link").first().getAttribute("href");

  await page.goto(href!);
  await expect(page.getByTestId("score-chart")).toBeVisible();
  await noHorizontalScroll(page);
  await shot(page, "loop-detail-375");

  await page.goto("/loops/new");
  await expect(page.getByRole("radio", { name: "Demo (no keys)" })).toBeVisible();
  await noHorizontalScroll(page);
  await shot(page, "new-loop-375");

  await page.getByRole("button", { name: /switch to dark mode/i }).click();
  await page.goto("/");
  await noHorizontalScroll(page);
  await shot(page, "loops-375-dark");
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(href!);
  await expect(page.getByTestId("score-chart")).toBeVisible();
  await shot(page, "loop-detail-dark");
  await page.getByRole("button", { name: /switch to light mode/i }).click();
  await page.goto("/");
  await shot(page, "loops");
});

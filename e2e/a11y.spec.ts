// axe-core over every page, in light and dark, at 1440 and 390 px: no serious
// or critical WCAG 2.x A/AA violation anywhere. One browser page per route
// walks the four combinations, so the suite stays around a minute.
import { expect, test, type Page } from "@playwright/test";
import { seriousViolations, THEMES, applyTheme, WIDTHS, demoLoop } from "./support/a11y";
import { signIn, trpc } from "./support/auth";

async function audit(page: Page, path: string, ready: (page: Page) => Promise<void>) {
  const failures: string[] = [];
  for (const theme of THEMES) {
    await applyTheme(page, theme);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: width > 800 ? 900 : 844 });
      await page.goto(path);
      await ready(page);
      await expect(page.locator("html")).toHaveClass(theme === "dark" ? /dark/ : /^(?!.*dark)/);
      for (const v of await seriousViolations(page)) failures.push(`${path} ${theme} ${width}px: ${v}`);
    }
  }
  expect(failures, failures.join("\n")).toEqual([]);
}

const heading = (name: string | RegExp) => async (page: Page) => {
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
};

test.describe("axe: 0 serious or critical violations", () => {
  test.setTimeout(300_000);

  test("sign-in page", async ({ page }) => {
    await audit(page, "/login", async (p) => {
      await expect(p.getByLabel("Email")).toBeVisible();
    });
  });

  test("loops, new loop and settings", async ({ page }) => {
    await signIn(page, "admin");
    await demoLoop(page.request, "An audited loop in the list", true);
    await audit(page, "/", heading("Loops"));
    await audit(page, "/loops/new", async (p) => {
      await expect(p.getByRole("radio").first()).toBeVisible();
    });
    await audit(page, "/settings", heading("Settings"));
  });

  test("a finished loop's page, its tabs and its shared report", async ({ page }) => {
    await signIn(page, "admin");
    const id = await demoLoop(page.request, "An audited finished loop", true);
    await audit(page, `/loops/${id}`, async (p) => {
      await expect(p.getByTestId("score-chart")).toHaveAttribute("data-points", /[1-9]/);
    });
    // The other tabs and the charts' table view, once, in the dark at full width.
    await page.setViewportSize({ width: 1440, height: 900 });
    for (const tab of ["Approvals", "Audit log", "Alerts"]) {
      await page.getByRole("tab", { name: new RegExp(`^${tab}`) }).click();
      await expect(page.getByRole("tabpanel")).toBeVisible();
      expect(await seriousViolations(page), tab).toEqual([]);
    }
    await page
      .getByTestId("score-chart")
      .getByRole("button", { name: /as a table|view as table/i })
      .click();
    await expect(page.getByRole("region", { name: "Score per iteration (table)" })).toBeVisible();
    expect(await seriousViolations(page), "chart table").toEqual([]);

    const link = await trpc(page.request, "share.create", { loopId: id });
    const path = (link.data as { path: string }).path;
    await audit(page, path, async (p) => {
      await expect(p.getByTestId("report-score-chart-summary")).toContainText("best");
    });
  });
});

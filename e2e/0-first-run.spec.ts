// First run: a new user lands on an empty dashboard whose empty state starts
// a demo loop in one click. Named to run first: specs share one server and
// database, and the later ones create loops.
import { expect, test } from "@playwright/test";
import { signIn, trpc } from "./support/auth";
import { expectStatus, shot } from "./support/loops";

test("the empty dashboard starts a demo loop in one click", async ({ page }) => {
  test.setTimeout(60_000);
  await signIn(page, "operator");
  const list = await trpc(page.request, "loops.list", {}, "query");
  expect((list.data as { total: number }).total, "this spec needs a fresh database: run it first").toBe(0);

  await page.goto("/");
  await expect(page.getByRole("heading", { name: "No loops yet" })).toBeVisible();
  await shot(page, "loops-empty-state");
  await page.getByRole("button", { name: "Start a demo loop" }).click();
  await page.waitForURL(/\/loops\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Demo loop");
  await expectStatus(page, /running|queued|starting/);
  // The demo paces itself so the charts visibly fill in.
  await expect
    .poll(async () => Number(await page.getByTestId("score-chart").getAttribute("data-points")), { timeout: 20_000 })
    .toBeGreaterThanOrEqual(2);

  // Back on the list it shows as a live row; stop it so later specs have the machine to themselves.
  await page.goto("/");
  await expect(page.getByTestId("loop-row").first()).toContainText("Demo loop");
  await page.goBack();
  await page
    .getByRole("toolbar", { name: "Loop controls" })
    .getByRole("button", { name: /^Terminate/ })
    .click();
  await page.getByLabel(/Reason/).fill("first-run check done");
  await page.getByRole("dialog").getByRole("button", { name: "Terminate" }).click();
  await expectStatus(page, /stopped/);
});

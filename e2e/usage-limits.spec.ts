// A loop at its provider's usage limit, in the browser: the loop page and the
// list say when it resumes, and "Resume now" runs it before the reset.
import { expect, test, type Page } from "@playwright/test";
import { signIn, trpc } from "./support/auth";
import { control, createLoopFromForm, expectStatus, steadyDemo } from "./support/loops";

async function iterations(page: Page, id: string) {
  const res = await trpc(page.request, "loops.iterations", { id, limit: 100 }, "query");
  expect(res.status).toBe(200);
  return (res.data as { items: { number: number; status: string }[] }).items;
}

test("waiting for the usage limit shows when the loop resumes; Resume now runs it", async ({ page }) => {
  test.setTimeout(150_000);
  await signIn(page, "operator");
  const id = await createLoopFromForm(
    page,
    "Demo (no keys)",
    steadyDemo(
      { delayMs: 200, stepsToComplete: 40, earlyClaimRate: 0, usageLimitAt: [2], usageLimitResetSeconds: 3600 },
      { stop: { maxIterations: 4, noProgressIterations: 0 } },
    ),
  );
  await expectStatus(page, "waiting for usage limit", 40_000);
  const resumes = /resumes \d\d:\d\d \(in (1 h( \d+ m)?|\d+ m)\)/;
  await expect(page.getByTestId("limit-resumes")).toHaveText(resumes);
  const toolbar = page.getByRole("toolbar", { name: "Loop controls" });
  await expect(toolbar.getByRole("button", { name: /^Resume now/ })).toBeEnabled();
  await expect(toolbar.getByRole("button", { name: /^Kill/ })).toBeEnabled();
  expect((await iterations(page, id)).map((i) => i.status)).toEqual(["rate_limited", "succeeded"]);

  await page.goto("/");
  const row = page.getByRole("row").filter({ has: page.locator(`a[href="/loops/${id}"]`) });
  await expect(row.getByTestId("limit-resumes")).toHaveText(resumes);

  await page.goto(`/loops/${id}`);
  await control(page, "Resume now");
  // Resuming asks first, from its button as from its shortcut.
  await page
    .getByRole("dialog", { name: /^Resume/ })
    .getByRole("button", { name: "Resume" })
    .click();
  await expect.poll(async () => (await iterations(page, id)).map((i) => i.number), { timeout: 40_000 }).toContain(3);
  await expectStatus(page, /stopped|running|queued/, 40_000);
});

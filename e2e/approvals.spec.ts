// Flow 2: a completion gate. Request changes with a comment (it appears in
// the next iteration's input), then approve, and the loop completes.
import { expect, test } from "@playwright/test";
import { signIn } from "./support/auth";
import { createLoopFromForm, expectStatus, shot, steadyDemo } from "./support/loops";

test("approval gate: request changes reaches the agent, approve completes", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, "operator");
  await createLoopFromForm(
    page,
    "Demo (no keys)",
    steadyDemo(
      { delayMs: 300, stepsToComplete: 3, earlyClaimRate: 0 },
      {
        stop: { maxIterations: 30, noProgressIterations: 0 },
        approvals: { beforeCompletion: { enabled: true, deadline: 0, defaultAction: "approve" } },
      },
    ),
  );

  // The gate opens when the evidence says done; the page says so and opens the approvals tab.
  await expectStatus(page, "awaiting approval", 40_000);
  const gate = page.getByTestId("pending-gate");
  await expect(gate).toBeVisible();
  await expect(gate).toContainText("completion gate");
  await expect(gate).toContainText("Score change");
  await shot(page, "loop-detail-approval");
  const gatedAt = Number((await page.getByTestId("iteration-count").textContent())?.split("/")[0]);

  await gate.getByRole("button", { name: "Request changes" }).click();
  const dialog = page.getByRole("dialog", { name: "Request changes" });
  await dialog.getByLabel(/What should change/).fill("Add a rollback checklist with owners");
  await dialog.getByRole("button", { name: "Request changes" }).click();
  await expect(dialog).toBeHidden();

  // The next iteration carries the comment in its input.
  await page.getByRole("tab", { name: /Iterations/ }).click();
  const next = page.locator(`[data-testid="iteration"][data-number="${gatedAt + 1}"]`);
  await expect(next).toBeVisible({ timeout: 30_000 });
  await next.getByRole("button").first().click();
  await expect(next.getByLabel(`Input of iteration ${gatedAt + 1}`)).toContainText(
    "Add a rollback checklist with owners",
  );

  // The evidence still says done, so the gate opens again; this time approve.
  await expectStatus(page, "awaiting approval", 30_000);
  await page
    .getByRole("toolbar", { name: "Loop controls" })
    .getByRole("button", { name: /^Approve/ })
    .click();
  await page.getByRole("dialog", { name: "Approve" }).getByRole("button", { name: "Approve" }).click();
  await expectStatus(page, "completed", 30_000);
  await page.getByRole("tab", { name: "Approvals" }).click();
  await expect(page.getByText("changes requested").first()).toBeVisible();
  await expect(page.getByText("approved").first()).toBeVisible();
});

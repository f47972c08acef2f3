// Keyboard and screen-reader flows of the loop page: shortcuts that respect
// WCAG 2.1.4 (never in a dialog, confirmed, can be turned off), dialogs that
// take and give back focus, status changes in the polite live region, and an
// idle page that keeps the main thread quiet.
import { expect, test } from "@playwright/test";
import { demoLoop, idleTaskMs } from "./support/a11y";
import { signIn, trpc } from "./support/auth";
import { createLoopFromForm, expectStatus, steadyDemo } from "./support/loops";

const announcer = (page: import("@playwright/test").Page) => page.getByTestId("status-announcer");
const toolbarButton = (page: import("@playwright/test").Page, name: string) =>
  page.getByRole("toolbar", { name: "Loop controls" }).getByRole("button", { name: new RegExp(`^${name}`) });

test("typing a comment in the Approve dialog fires no shortcut, and the approval is announced", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, "operator");
  await createLoopFromForm(
    page,
    "Demo (no keys)",
    steadyDemo(
      { delayMs: 200, stepsToComplete: 2, earlyClaimRate: 0 },
      {
        stop: { maxIterations: 30, noProgressIterations: 0 },
        approvals: { beforeCompletion: { enabled: true, deadline: 0, defaultAction: "approve" } },
      },
    ),
  );
  // One title per loop: its name (the template's) or goal.
  await expect(page).not.toHaveTitle(/^Loop · /);
  await expectStatus(page, "awaiting approval", 60_000);
  // The badge follows the live stream; the controls follow the next loops.byId answer. A key
  // pressed between the two finds Approve not yet available and does nothing, by design.
  await expect(
    page.getByRole("toolbar", { name: "Loop controls" }).getByRole("button", { name: /^Approve/ }),
  ).not.toHaveAttribute("aria-disabled", "true");

  await page.keyboard.press("a");
  const dialog = page.getByRole("dialog", { name: "Approve" });
  await expect(dialog).toBeVisible();
  const comment = dialog.getByLabel("Comment (optional)");
  await expect(comment).toBeFocused();
  // Every letter here is a shortcut somewhere on the page, and Space closed the dialog when × had focus.
  const text = "ship it: shortcuts i r h k t l f s x c n a stay quiet";
  await page.keyboard.type(text);
  await expect(comment).toHaveValue(text);
  await expect(page.getByRole("dialog")).toHaveCount(1);

  await page.keyboard.press("Tab"); // Cancel
  await page.keyboard.press("Tab"); // Approve
  await expect(dialog.getByRole("button", { name: "Approve" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();
  await expectStatus(page, "completed");
  await expect(announcer(page)).toHaveText(/^Loop completed after iteration \d+/);
});

test("state-changing keys confirm, pressed controls keep focus, status changes are announced, shortcuts turn off", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, "operator");
  const id = await demoLoop(page.request, "Keyboard controls", false);
  await page.goto(`/loops/${id}`);
  await expectStatus(page, "running");
  await expect(announcer(page)).toHaveAttribute("aria-live", "polite");

  // `i` asks first; Escape leaves the loop running. The button names its key once the key works
  // (the page has hydrated and listens): a key pressed before then was lost under a loaded CI.
  await expect(toolbarButton(page, "Interrupt")).toHaveAttribute("aria-keyshortcuts", "i");
  await page.keyboard.press("i");
  const confirm = page.getByRole("dialog", { name: /^Interrupt/ });
  await expect(confirm.getByRole("button", { name: /^Interrupt/ })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(confirm).toBeHidden();
  await expectStatus(page, "running");

  // The toolbar button by keyboard: it keeps focus while pending (aria-busy, not disabled).
  const interrupt = toolbarButton(page, "Interrupt");
  await interrupt.focus();
  await page.keyboard.press("Enter");
  await expect(page.locator("[data-control=interrupt]")).toBeFocused();
  await expectStatus(page, "paused", 60_000);
  await expect(announcer(page)).toHaveText(/^Loop paused after iteration \d+$/);

  // `r` confirmed with Enter resumes. The announcement follows the stream; Resume is allowed once
  // the loop's next read says so (a key pressed in between does nothing, by design).
  await expect(toolbarButton(page, "Resume")).toBeVisible();
  await page.keyboard.press("r");
  await expect(page.getByRole("dialog", { name: /^Resume/ })).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(announcer(page)).toHaveText(/^Loop (resumed at iteration \d+|running)$/, { timeout: 30_000 });

  // A dialog opened from a button gives focus back to it.
  const share = toolbarButton(page, "Share");
  await share.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("dialog", { name: "Share a read-only report" })).toBeVisible();
  await expect(page.getByLabel("Expires")).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(share).toBeFocused();

  // Turned off in the help dialog, and still off after a reload.
  await page.keyboard.press("?");
  const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await help.getByLabel(/Single-key keyboard shortcuts/).uncheck();
  await page.keyboard.press("Escape");
  await page.reload();
  await expectStatus(page, /running|paused/);
  await page.keyboard.press("i");
  await page.keyboard.press("?");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await page.goto("/settings");
  await expect(page.getByLabel(/Single-key keyboard shortcuts/)).not.toBeChecked();

  await trpc(page.request, "loops.controls.terminate", { id, reason: "test over" });
});

test("an idle loop page's main-thread time is measured (targets in npm run bench)", async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, "operator");
  const id = await demoLoop(page.request, "Idle measurement", true);
  await page.goto(`/loops/${id}`);
  await expect(page.getByTestId("score-chart")).toHaveAttribute("data-points", /[1-9]/);
  await page.waitForTimeout(3000);
  const started = Date.now();
  const ms = await idleTaskMs(page, 5000);
  const wall = Date.now() - started;
  console.log(`finished loop page: ${ms.toFixed(0)} ms of main-thread tasks in ${wall} ms idle`);
  // Sanity only: a real, non-negative figure within the wall time. The target is the bench's.
  expect(Number.isFinite(ms)).toBe(true);
  expect(ms).toBeGreaterThanOrEqual(0);
  expect(ms).toBeLessThanOrEqual(wall);
});

// A control sent from one tab shows in every other tab of the loop page, as
// it is, at once: a nudge to a running iteration is a stored request (the
// next iteration takes it), so both tabs say "Nudge pending…" until the
// runtime applies it, and a kill waiting for the agent shows "interrupting"
// in both. Before, only the tab that sent a request showed it pending.
import { expect, test, type Page } from "@playwright/test";
import { signIn, trpc } from "./support/auth";
import { control, expectStatus } from "./support/loops";

const toolbarButton = (page: Page, name: string) =>
  page.getByRole("toolbar", { name: "Loop controls" }).getByRole("button", { name: new RegExp(`^${name}`) });

test("a stored nudge and a kill show in the other tab at once, and clear there once applied", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, "operator");
  const created = await trpc(page.request, "loops.create", {
    goal: "Keep one long iteration running while two tabs watch",
    // An iteration of a minute: the nudge stays pending until the kill below ends it.
    agent: { kind: "demo", delayMs: 60_000, failureRate: 0, earlyClaimRate: 0, stepsToComplete: 50 },
    loop: { stop: { maxIterations: 5, noProgressIterations: 0 }, completion: { allowNoEvidence: true } },
    start: true,
  });
  expect(created.status).toBe(200);
  const id = (created.data as { id: string }).id;

  const other = await page.context().newPage();
  await page.goto(`/loops/${id}`);
  await other.goto(`/loops/${id}`);
  await expectStatus(page, "running");
  await expectStatus(other, "running");
  await expect(toolbarButton(other, "Nudge")).toHaveText(/^Nudge(?! pending)/);

  // Tab A nudges the running iteration: stored, pending in both tabs.
  await control(page, "Nudge");
  await page.getByRole("dialog").getByLabel("Message").fill("Try the smaller fix first");
  await page.getByRole("dialog").getByRole("button", { name: "Send nudge" }).click();
  await expect(toolbarButton(page, "Nudge")).toHaveText(/Nudge pending/, { timeout: 5_000 });
  await expect(toolbarButton(other, "Nudge")).toHaveText(/Nudge pending/, { timeout: 5_000 });

  // Tab B kills the agent: tab A shows the kill waiting for it, then both the paused loop,
  // and the nudge, applied at that safe point, is pending in neither.
  await control(other, "Kill");
  await other
    .getByRole("dialog")
    .getByLabel(/^Reason/)
    .fill("two tabs spec");
  await other.getByRole("dialog").getByRole("button", { name: "Kill" }).click();
  await expectStatus(page, /interrupting|paused/, 5_000);
  await expectStatus(page, "paused", 30_000);
  await expectStatus(other, "paused", 5_000);
  for (const tab of [page, other]) await expect(toolbarButton(tab, "Nudge")).toHaveText(/^Nudge(?! pending)/);

  await trpc(page.request, "loops.controls.terminate", { id, reason: "spec done" });
  await other.close();
});

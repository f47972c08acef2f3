// Controls land exactly once. In the browser, against the built app: a nudge
// sent to a paused loop is applied at once (no pending state while paused) and
// reaches exactly one iteration; resume and approve are each recorded once as
// applied, never "applied" and then "rejected".
import { expect, test, type Page } from "@playwright/test";
import { signIn, trpc } from "./support/auth";
import { control, createLoopFromForm, expectStatus, steadyDemo } from "./support/loops";

type Event = { type: string; payload: { command?: string; requestId?: string } };

async function controlEvents(page: Page, loopId: string): Promise<Event[]> {
  const types = ["control_requested", "control_applied", "control_rejected"];
  const res = await trpc(page.request, "events.list", { loopId, limit: 200, types }, "query");
  expect(res.status).toBe(200);
  return (res.data as { items: Event[] }).items;
}

async function iterations(page: Page, id: string) {
  const res = await trpc(page.request, "loops.iterations", { id, limit: 100 }, "query");
  expect(res.status).toBe(200);
  return (res.data as { items: { number: number; input: string }[] }).items;
}

const toolbarButton = (page: Page, name: string) =>
  page.getByRole("toolbar", { name: "Loop controls" }).getByRole("button", { name: new RegExp(`^${name}`) });

test("nudge, resume and approve each land exactly once", async ({ page }) => {
  test.setTimeout(150_000);
  await signIn(page, "operator");
  const id = await createLoopFromForm(
    page,
    "Demo (no keys)",
    steadyDemo(
      { delayMs: 700, stepsToComplete: 40, earlyClaimRate: 0 },
      {
        stop: { maxIterations: 60, noProgressIterations: 0 },
        approvals: { periodic: { every: 4, deadline: 0 } },
      },
    ),
  );
  await expectStatus(page, /running/, 20_000);

  // Pause it, then nudge: nothing runs, so the nudge is applied at once.
  await control(page, "Interrupt");
  await expectStatus(page, "paused", 20_000);
  const nudge = `Only once: check the rollback plan ${Date.now()}`;
  await control(page, "Nudge");
  await page.getByRole("dialog").getByLabel("Message").fill(nudge);
  await page.getByRole("dialog").getByRole("button", { name: "Send nudge" }).click();
  await expect(page.getByRole("dialog")).toBeHidden({ timeout: 15_000 });
  // Applied, not waiting for a resume: nothing is pending and the button is not stuck on "pending…".
  const detail = await trpc(page.request, "loops.byId", { id }, "query");
  expect((detail.data as { pendingControls: unknown[] }).pendingControls).toEqual([]);
  await expect(toolbarButton(page, "Nudge")).not.toHaveText(/pending/);
  await expect(toolbarButton(page, "Nudge")).toBeEnabled();
  await expectStatus(page, "paused");

  // Resume: it runs again until the next gate waits for approval (at once, if
  // the gate opened with the iteration the interrupt ended: a pause outranks it).
  await control(page, "Resume");
  // A resume starts the agent again: the button asks first.
  await page
    .getByRole("dialog", { name: /^Resume/ })
    .getByRole("button", { name: "Resume" })
    .click();
  await expectStatus(page, /running|queued|awaiting approval/, 10_000);
  await expectStatus(page, "awaiting approval", 40_000);
  const gatedAt = (await iterations(page, id))[0]!.number;
  await control(page, "Approve");
  await page.getByRole("dialog", { name: "Approve" }).getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("dialog", { name: "Approve" })).toBeHidden();
  await expect
    .poll(async () => (await iterations(page, id))[0]!.number, { timeout: 30_000 })
    .toBeGreaterThan(gatedAt + 1);

  // End it, then count.
  await control(page, "Terminate");
  const confirm = page.getByRole("dialog", { name: "Terminate this loop?" });
  await confirm.getByLabel(/Reason/).fill("controls-once done");
  await confirm.getByRole("button", { name: "Terminate" }).click();
  await expectStatus(page, "stopped", 30_000);

  // Exactly one iteration carries the nudge: the first after the resume.
  const rows = await iterations(page, id);
  const carrying = rows.filter((r) => r.input.includes(nudge)).map((r) => r.number);
  expect(carrying).toHaveLength(1);

  // One audit entry each for nudge, resume and approve: applied, never rejected, never re-applied.
  const events = await controlEvents(page, id);
  for (const command of ["nudge", "resume", "approve"]) {
    const mine = events.filter((e) => e.payload.command === command);
    expect(
      mine.map((e) => e.type),
      command,
    ).toEqual(["control_applied"]);
  }
  expect(events.filter((e) => e.type === "control_rejected")).toEqual([]);

  // The audit log in the page shows the same single entries.
  await page.getByRole("tab", { name: "Audit log" }).click();
  await expect(page.getByTestId("audit-row").first()).toBeVisible();
  const older = page.getByRole("button", { name: "Older events" });
  while (await older.isVisible()) {
    const shown = await page.getByTestId("audit-row").count();
    await older.click();
    await expect.poll(() => page.getByTestId("audit-row").count()).toBeGreaterThan(shown);
  }
  const applied = page.locator('[data-testid="audit-row"][data-type="control_applied"]');
  for (const command of ["nudge", "resume", "approve"]) {
    // The "Why" cell of an applied control names it (no reason was given).
    await expect(applied.filter({ has: page.getByRole("cell", { name: command, exact: true }) })).toHaveCount(1);
  }
  await expect(page.locator('[data-testid="audit-row"][data-type="control_rejected"]')).toHaveCount(0);
});

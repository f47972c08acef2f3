// A fork shows where it came from and what it inherited; Settings fits a
// phone; every page loads without a console error or a failed request (the
// favicon included); viewers get a read-only New-loop form; the terminate
// reason is previewed as a shared report will show it.
import { expect, test, type Page } from "@playwright/test";
import { signIn, trpc } from "./support/auth";
import { createLoopFromForm, expectStatus, noHorizontalScroll, shot, steadyDemo } from "./support/loops";

/** Console errors and failed same-origin requests while `visit` runs. */
async function problemsWhile(page: Page, visit: () => Promise<void>): Promise<string[]> {
  const problems: string[] = [];
  const origin = new URL(page.url() === "about:blank" ? test.info().project.use.baseURL! : page.url()).origin;
  const onConsole = (m: import("@playwright/test").ConsoleMessage) => {
    if (m.type() === "error") problems.push(`console: ${m.text()} (${m.location().url})`);
  };
  const onPageError = (e: Error) => problems.push(`page error: ${e.message}`);
  const onResponse = (r: import("@playwright/test").Response) => {
    if (r.url().startsWith(origin) && r.status() >= 400) problems.push(`${r.status()} ${r.url()}`);
  };
  page.on("console", onConsole);
  page.on("pageerror", onPageError);
  page.on("response", onResponse);
  try {
    await visit();
  } finally {
    page.off("console", onConsole);
    page.off("pageerror", onPageError);
    page.off("response", onResponse);
  }
  return problems;
}

// The later tests use the loops the first one makes: a retry runs them all again.
test.describe.configure({ mode: "serial" });

let parentId = "";
let forkId = "";

test("a fork shows its parent's history up to the fork point and links to the parent", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, "operator");
  parentId = await createLoopFromForm(page, "Demo (no keys)", (d) => ({
    ...steadyDemo(
      { delayMs: 50, stepsToComplete: 40, earlyClaimRate: 0 },
      { stop: { maxIterations: 3, noProgressIterations: 0 } },
    )(d),
    name: "Fork parent",
  }));
  await expectStatus(page, "stopped", 90_000);
  const forked = await trpc(page.request, "loops.controls.fork", { id: parentId, iteration: 2, start: false });
  expect(forked.status).toBe(200);
  forkId = (forked.data as { id: string }).id;

  await page.goto(`/loops/${forkId}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Fork parent (fork)");
  const origin = page.getByTestId("fork-origin");
  await expect(origin).toContainText("Forked from Fork parent at iteration 2");
  await expect(page.getByTestId("iteration-count")).toHaveText("2 / 3");
  // Not started: no elapsed time inherited from the parent's clock.
  await expect(page.getByText("not started", { exact: true }).first()).toBeVisible();
  await expect(page.getByRole("tab", { name: "Iterations (2)" })).toBeVisible();
  const inherited = page.locator('[data-testid="iteration"][data-inherited="true"]');
  await expect(inherited).toHaveCount(2);
  await expect(inherited.first().getByTestId("inherited-iteration")).toHaveText("inherited from Fork parent");
  await expect(page.getByTestId("score-chart")).toHaveAttribute("data-points", "2");
  await shot(page, "fork-inherited-history");

  await origin.getByRole("link", { name: "Fork parent" }).click();
  await page.waitForURL(`**/loops/${parentId}`);
  await expect(page.getByTestId("iteration")).toHaveCount(3);
  await expect(page.locator('[data-testid="iteration"][data-inherited="true"]')).toHaveCount(0);
});

test("the terminate dialog previews the reason as a shared report shows it", async ({ page }) => {
  await signIn(page, "operator");
  await page.goto(`/loops/${forkId}`);
  await page
    .getByRole("toolbar", { name: "Loop controls" })
    .getByRole("button", { name: /^Terminate/ })
    .click();
  await page.getByLabel(/Reason/).fill("key sk-ant-api03-abcdefghijklmnop1234 leaked, ask ops@example.com");
  await expect(page.getByTestId("free-text-preview")).toHaveText("key [redacted] leaked, ask [redacted]");
  await shot(page, "terminate-reason-preview");
});

test("Settings has no horizontal overflow at 390 px and the role selects keep their width", async ({ page }) => {
  await signIn(page, "admin");
  // A long address is the worst case for the users table.
  await trpc(page.request, "users.create", {
    email: "a.rather.long.address.for.the.users.table@example.com",
    password: "long-address-password",
    role: "viewer",
    name: "Long",
  });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/settings");
  const users = page.getByRole("region", { name: "Users" });
  await expect(users.getByLabel(/^Role of /).first()).toBeVisible();
  await noHorizontalScroll(page);
  for (const select of await users.getByLabel(/^Role of /).all()) {
    const box = (await select.boundingBox())!;
    expect(box.width, "a role select wide enough for 'operator'").toBeGreaterThanOrEqual(96);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
  }
  await shot(page, "settings-390");
});

test("no page logs a console error or a failed request", async ({ page, browser }) => {
  test.setTimeout(120_000);
  await signIn(page, "admin");
  const share = await trpc(page.request, "share.create", { loopId: parentId });
  expect(share.status).toBe(200);
  const sharePath = (share.data as { path: string }).path;
  const pages = ["/", "/loops/new", `/loops/${parentId}`, `/loops/${forkId}`, "/settings"];
  for (const path of pages) {
    const problems = await problemsWhile(page, async () => {
      await page.goto(path);
      await page.waitForLoadState("networkidle");
    });
    expect(problems, path).toEqual([]);
  }
  // Signed out: the sign-in page and a shared report.
  const anonymous = await browser.newPage();
  try {
    for (const path of ["/login", sharePath]) {
      const problems = await problemsWhile(anonymous, async () => {
        await anonymous.goto(path);
        await anonymous.waitForLoadState("networkidle");
      });
      expect(problems, path).toEqual([]);
    }
    const icon = await anonymous.request.get("/icons/icon.svg");
    expect(icon.status()).toBe(200);
    expect(icon.headers()["content-type"]).toContain("image/svg+xml");
    expect((await anonymous.request.get("/favicon.ico")).status()).toBe(200);
  } finally {
    await anonymous.close();
  }
});

test("a viewer sees a read-only New-loop form with a notice", async ({ page }) => {
  await signIn(page, "viewer");
  await page.goto("/loops/new");
  await expect(page.getByTestId("viewer-notice")).toContainText("only an operator or an admin can create loops");
  await expect(page.getByLabel(/^Goal/)).toBeDisabled();
  await expect(page.getByRole("button", { name: "Create and start loop" })).toBeDisabled();
  await shot(page, "new-loop-viewer");
});

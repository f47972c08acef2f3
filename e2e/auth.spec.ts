// Signing in and out in Chromium, the brute-force message, and what a viewer
// can (not) do: sees loops, has no enabled controls, and a forged control
// request from its session is refused.
import { expect, test, type Page } from "@playwright/test";
import { E2E_ADMIN, ensureAccount, signIn, signInApi, trpc } from "./support/auth";

/** Fails the test on any Content-Security-Policy violation the page reports. */
function watchCsp(page: Page) {
  const violations: string[] = [];
  page.on("console", (msg) => {
    if (/Content Security Policy|Refused to (execute|load|apply)/i.test(msg.text())) violations.push(msg.text());
  });
  return violations;
}

test("an operator signs in with the form, lands where they were going, and signs out", async ({ page }) => {
  const violations = watchCsp(page);
  const operator = await ensureAccount("operator");
  await page.goto("/settings");
  await expect(page).toHaveURL(/\/login\?next=%2Fsettings$/);
  await page.screenshot({ path: "test-results/screenshots/login.png" });
  await page.getByLabel("Email").fill(operator.email);
  await page.getByLabel("Password").fill(operator.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();
  // Operators are not admins: no user or secret management.
  await expect(page.getByRole("region", { name: "Your password" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Users" })).toHaveCount(0);

  const cookie = (await page.context().cookies()).find((c) => c.name === "ralph_session")!;
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", secure: false });

  await page.getByRole("link", { name: "Loops" }).click();
  await expect(page.getByRole("heading", { name: "Loops", level: 1 })).toBeVisible();
  // Client-side code runs under the CSP: the theme toggle works.
  await page.getByRole("button", { name: /switch to dark mode/i }).click();
  await expect(page.locator("html")).toHaveClass(/dark/);

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto("/");
  await expect(page).toHaveURL(/\/login$/);
  expect(violations).toEqual([]);
});

test("repeated wrong passwords get a clear rate-limit message", async ({ page }) => {
  await page.goto("/login");
  const email = `locked-${Date.now()}@ralph.test`;
  await page.getByLabel("Email").fill(email);
  for (let i = 0; i < 5; i++) {
    await page.getByLabel("Password").fill(`wrong-password-${i}`);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("main").getByRole("alert")).toHaveText("Email or password is incorrect");
  }
  await page.getByLabel("Password").fill("wrong-password-again");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("main").getByRole("alert")).toHaveText(
    /Too many failed sign-ins for this account\. Try again in \d+ minutes?\./,
  );
  await page.screenshot({ path: "test-results/screenshots/login-rate-limited.png" });
});

test("an admin manages users and secrets in settings", async ({ page }) => {
  await signIn(page, "admin");
  await page.goto("/settings");
  const users = page.getByRole("region", { name: "Users" });
  const email = `new-viewer-${Date.now()}@ralph.test`;
  await users.getByLabel("Email").fill(email);
  await users.getByLabel("Initial password").fill("new-viewer-password");
  await users.getByLabel("Role", { exact: true }).selectOption("viewer");
  await users.getByRole("button", { name: "Add user" }).click();
  await expect(users.getByRole("cell", { name: email, exact: true })).toBeVisible();
  await users.getByLabel(`Role of ${email}`).selectOption("operator");
  await users.getByRole("button", { name: `Disable ${email}` }).click();
  await expect(users.getByRole("button", { name: `Enable ${email}` })).toBeVisible();

  const secrets = page.getByRole("region", { name: "Secrets" });
  await secrets.getByLabel("Name").fill("E2E_WEBHOOK_SECRET");
  await secrets.getByLabel("Kind").selectOption("webhook_secret");
  await secrets.getByLabel("Value").fill("whsec-e2e-0123456789wxyz");
  await secrets.getByRole("button", { name: "Save secret" }).click();
  await expect(secrets.getByText("…wxyz")).toBeVisible();
  await expect(page.getByText("whsec-e2e-0123456789wxyz")).toHaveCount(0);
  await page.screenshot({ path: "test-results/screenshots/settings-admin.png", fullPage: true });
});

test("a viewer sees loops but no enabled controls, and a forged control request is refused", async ({
  page,
  playwright,
  baseURL,
}) => {
  const violations = watchCsp(page);
  // A loop to look at, created by the admin.
  const admin = await playwright.request.newContext({ baseURL });
  await signInApi(admin, E2E_ADMIN.email, E2E_ADMIN.password);
  const created = await trpc(admin, "loops.create", {
    goal: "Viewer can watch this loop",
    agent: { kind: "demo", delayMs: 200 },
    loop: { completion: { allowNoEvidence: true } },
    start: true,
  });
  expect(created.status).toBe(200);
  const loopId = (created.data as { id: string }).id;
  await admin.dispose();

  await signIn(page, "viewer");
  await page.goto("/");
  await expect(page.getByText("Viewer can watch this loop").first()).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "New loop" })).toHaveCount(0);

  await page.goto(`/loops/${loopId}`);
  await expect(page.getByText("Viewer can watch this loop").first()).toBeVisible();
  for (const name of ["Interrupt", "Kill", "Resume", "Terminate", "Nudge", "Approve", "Reject", "Fork", "Share"]) {
    const enabled = page.getByRole("button", { name, exact: true }).and(page.locator(":enabled"));
    await expect(enabled, `${name} is disabled or absent for a viewer`).toHaveCount(0);
  }

  // The viewer's own session, a well-formed same-origin request: the role check refuses it.
  for (const path of ["loops.controls.kill", "loops.controls.terminate", "share.create"]) {
    const forged = await trpc(
      page.request,
      path,
      path === "share.create" ? { loopId } : { id: loopId, reason: "forged" },
    );
    expect(forged.status, path).toBe(403);
    expect(forged.error?.data?.code).toBe("FORBIDDEN");
  }
  expect(violations).toEqual([]);
});

// Flow 4: a share link with a redaction preview; the report opens in a fresh
// browser with no session (and no JavaScript): summary and charts visible, no
// secret in the HTML or the exports; revoked, it is a 404 at once.
import { expect, test } from "@playwright/test";
import { signIn } from "./support/auth";
import { control, createLoopFromForm, expectStatus, noHorizontalScroll, shot, steadyDemo } from "./support/loops";

const SECRET = "sk-e2e-SHARE-9f3c7a51";

test("share a report, open it anonymously, revoke it", async ({ page, browser }) => {
  test.setTimeout(90_000);
  await signIn(page, "operator");
  await createLoopFromForm(page, "Demo (no keys)", (d) => ({
    ...steadyDemo({ delayMs: 0, stepsToComplete: 3, earlyClaimRate: 0 })(d),
    name: "Shared report loop",
    // A check whose fixed environment holds a secret value: it must never reach a shared page.
    scorers: [
      ...(d.scorers ?? []),
      { kind: "command-check", name: "check", argv: ["true"], format: "exit-code", env: { E2E_TOKEN: SECRET } },
    ],
  }));
  await expectStatus(page, /completed|stopped/, 45_000);

  await control(page, "Share");
  const dialog = page.getByRole("dialog", { name: "Share a read-only report" });
  await dialog.getByText("Shared configuration").click();
  await expect(dialog.getByTestId("redaction-preview")).toContainText("[redacted]");
  await expect(dialog.getByTestId("redaction-preview")).not.toContainText(SECRET);
  await dialog.getByLabel("Expires").selectOption({ label: "24 hours" });
  await dialog.getByRole("button", { name: "Create link" }).click();
  const url = await dialog.getByTestId("share-url").inputValue();
  expect(url).toMatch(/\/r\/[A-Za-z0-9_-]{43,}$/);

  // A stranger: no cookies, no JavaScript. Everything that matters is in the HTML.
  const stranger = await browser.newContext({ javaScriptEnabled: false });
  const anon = await stranger.newPage();
  const response = await anon.goto(url);
  expect(response?.status()).toBe(200);
  await expect(anon.getByRole("heading", { name: "Shared report loop" })).toBeVisible();
  await expect(anon.getByTestId("report-summary")).toContainText("Stop type");
  await expect(anon.getByTestId("report-score-chart").locator("svg path").first()).toBeVisible();
  await expect(anon.getByTestId("report-cost-chart").locator("svg path").first()).toBeVisible();
  await expect(anon.getByRole("table", { name: "Iterations" })).toBeVisible();
  expect(await anon.content()).not.toContain(SECRET);
  for (const kind of ["json", "markdown"]) {
    const exported = await anon.request.get(`${url}/export/${kind}`);
    expect(exported.status()).toBe(200);
    const body = await exported.text();
    expect(body).toContain("Shared report loop");
    expect(body).not.toContain(SECRET);
  }
  await shot(anon, "shared-report");
  await anon.setViewportSize({ width: 375, height: 800 });
  await noHorizontalScroll(anon);
  await shot(anon, "shared-report-375");

  // Revoke from the loop page: the very next request is a 404.
  await dialog.getByTestId("share-link").filter({ hasText: "active" }).getByRole("button", { name: "Revoke" }).click();
  // It cannot be undone: it asks first.
  await dialog.getByRole("group", { name: "Confirm revoke" }).getByRole("button", { name: "Revoke for good" }).click();
  await expect(dialog.getByTestId("share-link").first()).toContainText("revoked");
  expect((await anon.goto(url))?.status()).toBe(404);
  expect((await anon.request.get(`${url}/export/json`)).status()).toBe(404);
  await stranger.close();
});

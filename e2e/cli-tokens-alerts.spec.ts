// The operator's reach from outside the browser, against the built app: a
// token made in Settings drives the real `ralph` bin (through the Next route
// handler and its SSE stream) and stops working the moment it is revoked; an
// admin's webhook channel gets a signed test alert, logged in Settings.
import { execFile } from "node:child_process";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { baseURL } from "../playwright.config";
import { signIn } from "./support/auth";

function ralph(args: string[], token: string): Promise<{ code: number; stdout: string; stderr: string }> {
  // Only what the CLI needs: no config file of the machine's user can interfere.
  const env: NodeJS.ProcessEnv = {
    NODE_ENV: "production",
    // eslint-disable-next-line no-restricted-syntax -- the child needs a PATH; test tooling, not app configuration
    PATH: process.env.PATH,
    HOME: tmpdir(),
    RALPH_URL: baseURL,
    RALPH_TOKEN: token,
  };
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(process.cwd(), "cli/ralph.mjs"), ...args],
      { env, timeout: 90_000 },
      (error: (Error & { code?: unknown }) | null, stdout: string, stderr: string) =>
        resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

test("a token from Settings runs `ralph start --agent demo --wait` to exit 0, and is refused once revoked", async ({
  page,
  playwright,
}) => {
  test.setTimeout(120_000);
  await signIn(page, "operator");
  await page.goto("/settings");
  const section = page.getByRole("region", { name: "API tokens" });
  await section.getByLabel("Name").fill("e2e-ci");
  await section.getByLabel("Role").selectOption("operator");
  await section.getByRole("button", { name: "Create token" }).click();
  const value = section.getByLabel("New token value");
  await expect(value).toHaveValue(/^rct_[A-Za-z0-9_-]{43}$/);
  const token = await value.inputValue();
  await page.screenshot({ path: "test-results/screenshots/settings-token-created.png", fullPage: true });

  const run = await ralph(["start", "--agent", "demo", "--goal", "Write a rollout plan", "--wait"], token);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  expect(run.stdout).toMatch(/^\d+\/15 {2}succeeded {2}score \d\.\d\d/m);
  expect(run.stdout).toMatch(/ completed \(\w+\) after \d+ iterations/);
  const loopId = /^started (\S+)$/m.exec(run.stdout)![1]!;

  // The loop page: snooze one kind of alert for this loop, then mute another.
  await page.goto(`/loops/${loopId}`);
  await page.getByRole("tab", { name: "Alerts" }).click();
  const mutes = page.getByRole("list", { name: "Alert mutes" });
  await mutes.getByRole("button", { name: "Snooze Budget threshold for an hour" }).click();
  await expect(mutes.getByText(/snoozed until/)).toBeVisible();
  await mutes.getByRole("button", { name: "Mute Loop ended" }).click();
  await expect(mutes.getByText("muted", { exact: true })).toBeVisible();
  await page.goto("/settings");

  // Shown once: after a reload the list has the prefix and the last use, never the value.
  await page.reload();
  await expect(section.getByText("e2e-ci", { exact: true })).toBeVisible();
  await expect(page.getByText(token)).toHaveCount(0);
  await expect(section.getByText(/last used (?!never)/)).toBeVisible();
  await section.getByRole("button", { name: "Revoke e2e-ci" }).click();
  await expect(section.getByText("revoked")).toBeVisible();

  const api = await playwright.request.newContext({ baseURL });
  const after = await api.get(`/api/trpc/loops.list?input=${encodeURIComponent('{"json":{}}')}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(after.status()).toBe(401);
  await api.dispose();
  expect((await ralph(["ls"], token)).code).toBe(77);
});

test("an admin adds a webhook channel, sends a test, and sees it delivered in the log", async ({ page }) => {
  const received: { headers: IncomingMessage["headers"]; body: string }[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.writeHead(200).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  try {
    await signIn(page, "admin");
    await page.goto("/settings");
    const alerts = page.getByRole("region", { name: "Alerts" });
    await alerts.getByLabel("Name").fill("e2e-hook");
    await alerts.getByLabel("Webhook URL").fill(url);
    await alerts.getByRole("button", { name: "Add channel" }).click();
    await expect(alerts.getByLabel("Signing secret")).toHaveValue(/^whsec_/);
    await alerts.getByRole("button", { name: "Send a test to e2e-hook" }).click();
    await expect.poll(() => received.length, { timeout: 15_000 }).toBe(1);
    expect(received[0]!.headers["x-ralph-signature"]).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(JSON.parse(received[0]!.body)).toMatchObject({ version: 1, kind: "test" });
    const log = page.getByRole("table", { name: "Alert deliveries" });
    await expect(log.getByText("delivered")).toBeVisible({ timeout: 15_000 });
    await page.screenshot({ path: "test-results/screenshots/settings-alerts.png", fullPage: true });
  } finally {
    server.close();
  }
});

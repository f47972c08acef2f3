import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "@playwright/test";
import { E2E_ADMIN } from "./e2e/support/accounts";

// Every run serves the built app on a fresh SQLite database of its own.
const dataDir = mkdtempSync(join(tmpdir(), "ralph-e2e-"));
// RALPH_E2E_PORT lets several checkouts run their browser suites side by side.
// eslint-disable-next-line no-restricted-syntax -- test tooling, not app configuration
const port = Number(process.env.RALPH_E2E_PORT ?? 3210);
export const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  forbidOnly: true,
  // One second attempt in CI only; Playwright still reports a retried pass as flaky.
  // eslint-disable-next-line no-restricted-syntax -- test tooling, not app configuration
  retries: process.env.CI ? 1 : 0,
  workers: 1,
  reporter: [["list"], ["json", { outputFile: "test-reports/playwright.json" }]],
  timeout: 30_000,
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      // Debian's Chromium; Playwright never downloads a browser here.
      executablePath: "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--headless",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  projects: [{ name: "chromium", use: { browserName: "chromium" } }],
  webServer: {
    command: `node node_modules/next/dist/bin/next start -p ${port} -H 127.0.0.1`,
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      DATABASE_URL: `file:${join(dataDir, "e2e.db")}`,
      RALPH_DATA_DIR: dataDir,
      PORT: String(port),
      RALPH_SWEEP_INTERVAL_MS: "1000",
      // Operators may point loops at folders under the temp dir, where the specs make their workspaces.
      RALPH_WORKSPACE_ROOTS: tmpdir(),
      // The admin e2e/support/auth.ts signs in as (and creates the other roles with).
      RALPH_ADMIN_EMAIL: E2E_ADMIN.email,
      RALPH_ADMIN_PASSWORD: E2E_ADMIN.password,
      // The alert specs' webhook receiver listens on loopback.
      RALPH_ALERT_ALLOW_HOSTS: "127.0.0.1",
    },
    stdout: "pipe",
  },
});

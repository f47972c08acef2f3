// A permission prompt on the loop page: the claude-code preset's agent asks (through its per-attempt
// permission server) to run a command the loop's policy watches; the page shows the exact command, the
// tool, the risk, the countdown and the default; an operator clicks Approve and the command runs. The
// agent is test/fixtures/permission-asker.mjs, calling the permission tool as Claude Code does (the
// real CLI's behaviour is the real-cli test's job; this is about the page).
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { signIn, trpc } from "./support/auth";

const asker = join(process.cwd(), "test/fixtures/permission-asker.mjs");

test("a pending permission prompt shows its command, risk and deadline; Approve lets it run", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, "admin");
  const dir = mkdtempSync(join(tmpdir(), "ralph-e2e-perm-"));
  const marker = join(dir, "approved.txt");
  const command = `echo approved > ${marker}`;
  const created = await trpc(page.request, "loops.create", {
    goal: "Write the marker file",
    agent: {
      kind: "command",
      preset: "claude-code",
      argv: [process.execPath, asker, command],
      timeoutSeconds: 100,
      // The fixture lives in the app folder, hidden from a sandboxed agent.
      sandbox: "off",
      permissions: { commandPatterns: ["approved\\.txt"], risk: "high", deadlineSeconds: 90, defaultAction: "deny" },
    },
    loop: {
      stop: { maxIterations: 1, noProgressIterations: 0 },
      retry: { maxAttempts: 1 },
      health: { checkInterval: 0 },
      completion: { allowNoEvidence: true },
    },
    start: true,
  });
  expect(created.status, created.error?.message).toBe(200);
  const id = (created.data as { id: string }).id;
  await page.goto(`/loops/${id}`);
  const prompt = page.getByTestId("permission-prompt");
  await expect(prompt).toBeVisible({ timeout: 60_000 });
  await expect(prompt).toContainText("Bash");
  await expect(prompt).toContainText(command);
  await expect(prompt).toContainText("high risk");
  await expect(prompt).toContainText(/Deadline: \d/);
  await expect(prompt).toContainText("it is denied");
  expect(existsSync(marker)).toBe(false);
  await prompt.getByRole("button", { name: "Approve" }).click();
  await expect(prompt).toBeHidden({ timeout: 20_000 });
  await expect.poll(() => existsSync(marker), { timeout: 30_000 }).toBe(true);
  await page.getByRole("tab", { name: "Audit log" }).click();
  await expect(page.getByText("Permission answered").first()).toBeVisible({ timeout: 20_000 });
});

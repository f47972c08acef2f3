// The workspace under git, in the browser: an agent that rewrites the
// protected test is flagged in the timeline, each iteration shows the code
// it changed, the patch downloads, an operator rolls the files back to an
// iteration, and a fork starts from one.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { ANSWER_TEST_SH, answerProject } from "../server/agents/fixtures/answer-project";
import { signIn } from "./support/auth";
import { createLoopFromForm, expectStatus, shot } from "./support/loops";

const root = mkdtempSync(join(tmpdir(), "ralph-e2e-git-"));
test.afterAll(() => rmSync(root, { recursive: true, force: true }));

test("tamper flag, code diff, patch download, roll back and fork from an iteration", async ({ page }) => {
  test.setTimeout(150_000);
  const workspace = answerProject(root, "cheat", "tampering-agent.sh");
  await signIn(page, "operator");
  const id = await createLoopFromForm(page, "Claude Code until tests pass", (d) => ({
    ...d,
    name: "Tampering agent under git",
    workspace,
    agent: { kind: "command", preset: "generic", argv: ["./tampering-agent.sh"], timeoutSeconds: 30 },
    scorers: [{ kind: "command-check", name: "tests", argv: ["./test.sh"], format: "tap" }],
    evidence: { protectedPaths: ["test.sh"], onTamper: "restore" },
    loop: { ...(d.loop ?? {}), stop: { maxIterations: 2, scoreThreshold: 1 }, approvals: {} },
  }));
  await expectStatus(page, /stopped|failed/, 120_000);
  // After `restore` the test on disk is the original.
  expect(readFileSync(join(workspace, "test.sh"), "utf8")).toBe(ANSWER_TEST_SH);

  const first = page.locator('[data-testid="iteration"][data-number="1"]');
  await expect(first.getByTestId("tamper-flag")).toContainText("test.sh");
  await expect(first.getByTestId("diffstat")).toContainText("1 file");
  await first.getByRole("button").first().click();
  const diff = first.getByTestId("code-diff");
  await expect(diff).toContainText("test.sh");
  await expect(diff).toContainText('+echo "ok 2 - answer is 42"');
  await shot(page, "timeline-code-diff-tamper");

  // Roll back to iteration 1: its files (the agent's rewritten test) come back as a new commit.
  await first.getByRole("button", { name: "Roll back to #1" }).click();
  const dialog = page.getByRole("dialog", { name: "Roll back to iteration 1" });
  await dialog.getByLabel("Reason").fill("inspect what iteration 1 left");
  await dialog.getByRole("button", { name: "Roll back" }).click();
  await expect(page.getByText(/Rolled back to iteration 1/)).toBeVisible();
  await expect.poll(() => readFileSync(join(workspace, "test.sh"), "utf8")).not.toBe(ANSWER_TEST_SH);

  // The patch: the branch against its baseline (the restores were committed; the roll back brought the rewrite back).
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download patch" }).click();
  const patch = await download;
  expect(patch.suggestedFilename()).toMatch(/^ralph-[0-9a-f]{8}\.patch$/);
  const text = readFileSync((await patch.path())!, "utf8");
  expect(text).toContain("diff --git a/test.sh b/test.sh");

  await first.getByRole("button", { name: "Fork from #1" }).click();
  // A fork starts an agent: it asks first.
  await page
    .getByRole("dialog", { name: "Fork from iteration 1" })
    .getByRole("button", { name: "Fork and start" })
    .click();
  await page.waitForURL((url) => /\/loops\/[0-9a-f-]{36}$/.test(url.pathname) && !url.pathname.endsWith(id));
  await expect(page.getByText(/Forked from iteration 1/)).toBeVisible();
});

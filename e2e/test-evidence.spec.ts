// Evidence from real test runners, in the browser (node --test: the sandbox
// hides the app folder, so a sample project cannot borrow its node_modules): the New-loop form shows
// the runner a check detects and runs it once; the timeline names the
// failing tests of each iteration, special characters and unicode intact.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { copyProject } from "../server/agents/fixtures/runner-projects";
import { signIn } from "./support/auth";
import { createLoopFromForm, expectStatus, shot } from "./support/loops";

const SPECIAL = `<a href="x">&amp; 'q'</a> > 5 & "ok"`;
const root = mkdtempSync(join(tmpdir(), "ralph-e2e-evidence-"));
test.afterAll(() => rmSync(root, { recursive: true, force: true }));

test("the New-loop form shows the detected runner and tests the check now", async ({ page }) => {
  test.setTimeout(90_000);
  const workspace = copyProject("node-test-nested", root, "form-node");
  await signIn(page, "operator");
  await page.goto("/loops/new");
  await page.getByRole("radio", { name: "Claude Code until tests pass" }).check();
  const preview = page.getByTestId("check-preview");
  await expect(preview).toContainText("Set the workspace");
  await page.getByLabel(/Directory the agent works in/).fill(workspace);
  await expect(preview.getByTestId("detected-runner")).toContainText("node --test — npm test runs `node --test`");
  await expect(preview.getByTestId("detected-report")).toHaveText(
    "node's TAP report file (asked for through NODE_OPTIONS)",
  );
  await expect(preview).toContainText("--test-reporter=tap --test-reporter-destination=");

  await preview.getByRole("button", { name: "Test the check now" }).click();
  const result = preview.getByTestId("check-result");
  await expect(result).toContainText("Score 0.57", { timeout: 60_000 });
  await expect(result.getByTestId("failing-test")).toHaveCount(3);
  await expect(result).toContainText("strings > ünïcödé 名前 fails");
  await expect(result).toContainText(SPECIAL);
  await shot(page, "new-loop-check-preview");

  await page.getByLabel(/Directory the agent works in/).fill(join(root, "does-not-exist"));
  await expect(preview.getByRole("alert")).toContainText("does not exist");
});

test("the timeline names the failing tests of an iteration", async ({ page }) => {
  test.setTimeout(120_000);
  const workspace = copyProject("node-test-nested", root, "loop-node");
  await signIn(page, "operator");
  await createLoopFromForm(page, "Claude Code until tests pass", (d) => ({
    ...d,
    name: "Evidence from node --test",
    workspace,
    // An agent that changes nothing: the tests stay as they are, 4 of 7 passing.
    agent: { kind: "command", preset: "generic", argv: ["true"], timeoutSeconds: 30 },
    loop: { ...(d.loop ?? {}), stop: { maxIterations: 1, scoreThreshold: 1 }, approvals: {} },
  }));
  await expectStatus(page, "stopped", 90_000);
  const row = page.getByTestId("iteration").first();
  await expect(row.getByTestId("test-summary")).toHaveText(
    "3 failed: plain failure, ünïcödé 名前 fails, special chars…",
  );
  await row.getByRole("button").first().click();
  await expect(row.getByTestId("failing-test")).toHaveCount(3);
  await expect(row.getByTestId("test-evidence")).toContainText(SPECIAL);
  await expect(row.getByTestId("test-evidence")).toContainText("4/7 passed, 3 failed, 1 skipped");
  await shot(page, "timeline-test-evidence");
});

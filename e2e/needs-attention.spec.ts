// The stopper: a real agent script that changes nothing and ends its turn
// with a question. The loop waits in "needs attention" with the question and
// an answer box; the operator's answer from the UI reaches the next prompt.
import { chmodSync, copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { signIn, trpc } from "./support/auth";
import { expectStatus, shot } from "./support/loops";

const root = mkdtempSync(join(tmpdir(), "ralph-e2e-attention-"));
test.afterAll(() => rmSync(root, { recursive: true, force: true }));
const QUESTION = "Should add() also accept strings? Please confirm before I change it.";

test("a loop whose agent asks waits in needs attention; the answer from the UI reaches the next prompt", async ({
  page,
}) => {
  test.setTimeout(120_000);
  // The sandbox hides the app folder: the script runs from the loop's own workspace.
  copyFileSync(join(process.cwd(), "server/agents/fixtures/asking-agent.sh"), join(root, "asking-agent.sh"));
  chmodSync(join(root, "asking-agent.sh"), 0o755);
  await signIn(page, "operator");
  const created = await trpc(page.request, "loops.create", {
    goal: "Make ./test.sh pass",
    workspace: root,
    agent: { kind: "command", argv: ["./asking-agent.sh"], timeoutSeconds: 30 },
    loop: { stop: { maxIterations: 3, noProgressIterations: 0 }, completion: { allowNoEvidence: true } },
    start: true,
  });
  expect(created.status, JSON.stringify(created.error)).toBe(200);
  await page.goto(`/loops/${(created.data as { id: string }).id}`);
  await expectStatus(page, "needs attention", 60_000);
  await expect(page.getByTestId("no-evidence-badge")).toHaveText("can never complete; stops on limits");
  const panel = page.getByTestId("pending-question");
  await expect(panel.getByTestId("agent-question")).toHaveText(QUESTION);
  await expect(page.getByTestId("failure-kind").first()).toHaveText("asked a question");
  await shot(page, "needs-attention");
  // A legend explains every badge.
  const legend = page.getByTestId("badge-legend");
  await legend.getByText("What the badges mean").click();
  await expect(legend).toContainText("the agent ended its turn asking the operator");
  await expect(legend).toContainText("ran · evidence failed");

  await panel.getByLabel("Your answer").fill("Numbers only, please.");
  await panel.getByRole("button", { name: "Send answer" }).click();
  const second = page.locator('[data-testid="iteration"][data-number="2"]');
  await expect(second).toBeVisible({ timeout: 60_000 });
  // It asks again, and the loop waits again rather than re-sending the prompt.
  await expectStatus(page, "needs attention", 60_000);
  await second.getByRole("button").first().click();
  const input = second.getByLabel("Input of iteration 2");
  await expect(input).toContainText(`> ${QUESTION}`);
  await expect(input).toContainText("answered:\n> Numbers only, please.");
  // The composed prompt shows where each of its sections starts.
  await expect(second.getByTestId("prompt-section").filter({ hasText: "[Agent question]" })).toBeVisible();
  await expect(second.getByTestId("prompt-section-list")).toContainText("Agent question");

  // The shared report says it too.
  const shared = await trpc(page.request, "share.create", { loopId: (created.data as { id: string }).id });
  expect(shared.status, JSON.stringify(shared.error)).toBe(200);
  await page.goto((shared.data as { path: string }).path);
  await expect(page.getByTestId("no-evidence-badge")).toHaveText("can never complete; stops on limits");
  await expect(page.getByTestId("report-summary")).toContainText("can never complete; stops on limits");
});

test("the New-loop form validates the prompt template and labels a loop with no evidence", async ({ page }) => {
  await signIn(page, "operator");
  await page.goto("/loops/new");
  await page.getByRole("tab", { name: "JSON" }).click();
  const definition = (sections: string[]) =>
    JSON.stringify({
      goal: "Make ./test.sh pass",
      agent: { kind: "demo" },
      loop: { completion: { allowNoEvidence: true }, input: { sections } },
    });
  const editor = page.getByLabel("Loop definition (JSON)");
  await editor.fill(definition(["Completion protocol", "Failing tests", "Weather report"]));
  await expect(page.getByTestId("no-evidence-notice")).toContainText("can never complete; stops on limits");
  await page.getByRole("checkbox", { name: "Start immediately" }).uncheck();
  await page.getByRole("button", { name: "Save draft" }).click();
  // An unknown section in the template is an error, not silently dropped.
  const problems = page.getByRole("alert").filter({ hasText: "Please fix these" });
  await expect(problems).toContainText("loop.input.sections");
  await expect(page).toHaveURL(/\/loops\/new/);
  await editor.fill(definition(["Completion protocol", "Failing tests"]));
  await page.getByRole("button", { name: "Save draft" }).click();
  await page.waitForURL(/\/loops\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("no-evidence-badge")).toHaveText("can never complete; stops on limits");
});

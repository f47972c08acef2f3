// A budget that holds, in the browser: a real CLI agent (test/fixtures/
// counting-agent.mjs) reports about $0.005 an iteration; with a $0.015 budget
// the loop stops before an iteration would pass it, and the page shows spend
// at or below $0.015 with enough digits to be true.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { signIn, trpc } from "./support/auth";
import { attachShot, watchConsole } from "./support/evidence";
import { expectStatus } from "./support/loops";

const dir = mkdtempSync(join(tmpdir(), "ralph-e2e-budget-"));
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("a $0.015 budget at about $0.005 an iteration stops at or below $0.015", async ({ page }) => {
  test.setTimeout(120_000);
  const consoleProblems = watchConsole(page);
  // An admin: only an admin may run an agent with the sandbox off.
  await signIn(page, "admin");
  const countFile = join(dir, "calls.txt");
  const created = await trpc(page.request, "loops.create", {
    goal: "Spend carefully",
    agent: {
      kind: "command",
      preset: "generic",
      argv: [process.execPath, join(process.cwd(), "test/fixtures/counting-agent.mjs")],
      env: { COUNT_FILE: countFile, SLEEP_MS: "300", COSTS: "0.0049,0.0052,0.0048,0.0051,0.005" },
      timeoutSeconds: 60,
      killGraceMs: 200,
      // The script and the count file are outside the loop's workspace, hidden from a sandboxed agent.
      sandbox: "off",
    },
    loop: {
      stop: { maxIterations: 20, noProgressIterations: 0, maxConsecutiveFailures: 0 },
      budget: { maxCostUsd: 0.015 },
      health: { checkInterval: 0 },
      completion: { allowNoEvidence: true },
    },
    start: true,
  });
  expect(created.status, JSON.stringify(created.error)).toBe(200);
  const id = (created.data as { id: string }).id;
  await page.goto(`/loops/${id}`);

  await expectStatus(page, "stopped", 60_000);
  const reason = page.getByTestId("stop-reason");
  await expect(reason).toContainText("the next iteration is expected to cost about $0.0052");
  // Two iterations ($0.0049 + $0.0052): a third at up to $0.0052 would pass the budget.
  await expect(page.getByRole("tab", { name: /Iterations \(2\)/ })).toBeVisible();
  const cost = page.locator("dt", { hasText: "Cost / budget" }).locator("xpath=..");
  await expect(cost).toContainText("$0.0101 / $0.015");
  await attachShot(page, "budget-stopped-at-or-below");

  // What the page shows is what the loop spent, and the agent was called exactly twice.
  const detail = await trpc(page.request, "loops.byId", { id }, "query");
  const loop = (detail.data as { loop: { costUsd: number; stopType: string } }).loop;
  expect(loop.stopType).toBe("budget_exhausted");
  expect(loop.costUsd).toBeLessThanOrEqual(0.015);
  expect(readFileSync(countFile, "utf8").trim().split("\n")).toHaveLength(2);
  expect(consoleProblems()).toEqual([]);
});

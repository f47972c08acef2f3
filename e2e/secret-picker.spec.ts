// Templates that need a secret pick a stored one by name: the Claude Code
// template offers the stored secrets the operator may use in a dropdown, says
// which one it takes by name when none is picked (the preflight agrees), and a
// pick lands in the definition the loop is saved with. Viewers get no picker.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, request as playwrightRequest, test } from "@playwright/test";
import { E2E_ADMIN, signIn, signInApi, trpc } from "./support/auth";
import { attachShot, watchConsole } from "./support/evidence";

const workspace = mkdtempSync(join(tmpdir(), "ralph-e2e-secret-pick-"));
test.afterAll(() => rmSync(workspace, { recursive: true, force: true }));

test.beforeAll(async () => {
  const admin = await playwrightRequest.newContext({ baseURL: test.info().project.use.baseURL });
  try {
    await signInApi(admin, E2E_ADMIN.email, E2E_ADMIN.password);
    for (const [name, kinds] of [
      ["ANTHROPIC_API_KEY", []],
      ["TEAM_CLAUDE_KEY", ["command"]],
      // Scoped to LLM adapters: not offered for a CLI agent.
      ["LLM_ONLY_KEY", ["llm"]],
    ] as const) {
      const set = await trpc(admin, "secrets.set", {
        name,
        kind: "provider_key",
        value: `sk-e2e-${name.toLowerCase()}-0123456789`,
        scope: { roles: ["operator"], kinds, hosts: [] },
      });
      expect(set.status, JSON.stringify(set.error)).toBe(200);
    }
  } finally {
    await admin.dispose();
  }
});

async function openClaudeTemplate(page: import("@playwright/test").Page) {
  await page.goto("/loops/new");
  await page.getByRole("radio", { name: "Claude Code until tests pass" }).check();
}

test("the Claude Code template picks a stored secret by name from a dropdown", async ({ page }) => {
  const consoleProblems = watchConsole(page);
  await signIn(page, "operator");
  await openClaudeTemplate(page);
  // A workspace, so the definition is valid and the preflight runs.
  await page.getByRole("tab", { name: "JSON" }).click();
  const editor = page.getByLabel("Loop definition (JSON)");
  await editor.fill(JSON.stringify({ ...JSON.parse(await editor.inputValue()), workspace }, null, 2));
  await page.getByRole("tab", { name: "Form" }).click();

  const picker = page.getByTestId("secret-picker");
  const select = picker.getByLabel("Stored secret for ANTHROPIC_API_KEY");
  await expect(select).toBeVisible({ timeout: 10_000 });
  // Other specs store secrets in the same database: ours must be offered, in any company.
  await expect(select.locator("option").first()).toHaveText("By name: the stored secret ANTHROPIC_API_KEY");
  for (const name of ["ANTHROPIC_API_KEY", "TEAM_CLAUDE_KEY"])
    await expect(select.locator("option").filter({ hasText: new RegExp(`^${name}$`) })).toHaveCount(1);
  const secretCheck = page.getByTestId("preflight-check").filter({ hasText: "Secret ANTHROPIC_API_KEY" });
  await expect(secretCheck).toContainText('from the stored secret "ANTHROPIC_API_KEY"');
  await attachShot(page, "secret-picker-by-name");

  await select.selectOption("TEAM_CLAUDE_KEY");
  await expect(select).toHaveValue("TEAM_CLAUDE_KEY");
  await expect(secretCheck).toContainText('from the stored secret "TEAM_CLAUDE_KEY"');
  await page.getByRole("tab", { name: "JSON" }).click();
  const definition = JSON.parse(await editor.inputValue()) as { agent: { secrets: unknown[] } };
  expect(definition.agent.secrets).toEqual([{ name: "ANTHROPIC_API_KEY", secret: "TEAM_CLAUDE_KEY" }]);
  await attachShot(page, "secret-picker-picked");

  // Saved with the pick (a clone's definition shows it redacted, as every secret field).
  await page.getByRole("checkbox", { name: "Start immediately" }).uncheck();
  await page.getByRole("button", { name: "Save draft" }).click();
  await page.waitForURL(/\/loops\/[0-9a-f-]{36}$/);
  const id = page.url().split("/").at(-1)!;
  const saved = await trpc(page.request, "loops.definition", { id }, "query");
  const stored = saved.data as { definition: { agent: { secrets: unknown[] } }; redactedPaths: string[] };
  expect(stored.definition.agent.secrets).toEqual([{ name: "ANTHROPIC_API_KEY", secret: "[redacted]" }]);
  expect(stored.redactedPaths).toContain("agent.secrets.0.secret");
  expect(consoleProblems()).toEqual([]);
});

test("a viewer's read-only form offers no secret to pick", async ({ page }) => {
  const consoleProblems = watchConsole(page);
  await signIn(page, "viewer");
  await openClaudeTemplate(page);
  await expect(page.getByTestId("viewer-notice")).toBeVisible();
  await expect(page.getByLabel(/^Goal/)).toBeDisabled();
  // Give a picker the time it would take to show, then check there is none.
  await page.waitForTimeout(1_000);
  await expect(page.getByTestId("secret-picker")).toHaveCount(0);
  await attachShot(page, "secret-picker-viewer");
  expect(consoleProblems()).toEqual([]);
});

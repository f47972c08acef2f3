// A race of three command agents from the Race form, in the browser: a real git repository with a
// real node:test check (test/race-fixtures.ts); one agent never fixes the code, one at iteration 2,
// one at 3. The compare view shows the first verified as the winner, the others stopped, the score
// chart, verdict lines, each contender's diff, and cost per verified task per contender.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { raceRepo, RACE_AGENT } from "../test/race-fixtures";
import { signIn } from "./support/auth";
import { shot } from "./support/loops";

const root = mkdtempSync(join(tmpdir(), "ralph-e2e-race-"));
test.afterAll(() => rmSync(root, { recursive: true, force: true }));

test("a race of three agents shows the compare view and lands the first verified", async ({ page }) => {
  test.setTimeout(180_000);
  const repo = raceRepo(join(root, "repo"));
  await signIn(page, "operator");
  await page.goto("/races/new");
  await page.getByLabel("Name (optional)").fill("fix add");
  await page.getByLabel(/^Goal/).fill("Make the tests pass");
  await page.getByLabel(/^Repository/).fill(repo);
  await page.getByLabel(/^Land the winner onto/).fill("release");
  const contenders: [string, string][] = [
    ["never", `${RACE_AGENT} never 0.03 0.5`],
    ["second", `${RACE_AGENT} 2 0.01 0`],
    ["third", `${RACE_AGENT} 3 0.02 0.5`],
  ];
  for (const [i, [label, command]] of contenders.entries()) {
    await page.getByLabel(`Contender ${i + 1}`, { exact: true }).fill(label);
    await page.locator(`#c${i}-preset`).selectOption("generic");
    await page.locator(`#c${i}-command`).fill(command);
  }
  await page.getByRole("button", { name: "Start the race" }).click();
  await page.waitForURL(/\/races\/[^/]+$/);

  const decision = page.getByTestId("race-decision");
  await expect(decision).toContainText("fix add: second won", { timeout: 120_000 });
  await expect(decision).toContainText("passed the full evidence first");
  const card = (name: string) => page.getByRole("article", { name: `Contender fix add: ${name}` });
  await expect(card("second")).toContainText("winner");
  for (const loser of ["never", "third"]) {
    await expect(card(loser)).toHaveAttribute("data-status", "stopped", { timeout: 60_000 });
    await expect(card(loser).getByTestId("contender-cpv")).toHaveText("no verified task");
    await expect(card(loser).getByTestId("contender-stop")).toHaveText("another contender won the race");
  }
  await expect(card("second").getByTestId("contender-cpv")).toHaveText("$0.02");
  await expect(card("second").getByTestId("verdict-lines")).toContainText("check: 1 of 1 targets pass");
  await expect(card("second").getByTestId("code-diff")).toContainText("src/math.js");
  await expect(page.getByTestId("race-score-chart")).toHaveAttribute("data-points", /[2-9]/);
  await expect(page.getByTestId("race-cpv")).not.toHaveText("no verified task");
  await shot(page, "race-compare");
});

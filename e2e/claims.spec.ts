// Flow 3: an agent that claims "done" without evidence is flagged on every
// such iteration, and the loop does not complete on its word.
import { expect, test } from "@playwright/test";
import { signIn } from "./support/auth";
import { createLoopFromForm, expectStatus, shot, steadyDemo } from "./support/loops";

test("claimed done without evidence: flagged, and the loop does not complete", async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, "operator");
  await createLoopFromForm(page, "Demo (no keys)", (d) => ({
    ...steadyDemo(
      { delayMs: 200, stepsToComplete: 2, earlyClaimRate: 1 },
      {
        stop: { maxIterations: 3, scoreThreshold: 0.95, noProgressIterations: 0 },
        completion: { evidence: ["score"] },
      },
    )(d),
    name: "Claims without evidence",
    // A keyword the demo never writes: the score, and so the evidence, stays at 0.
    scorers: [{ kind: "keyword", name: "impossible", keywords: ["xylophonezebra"] }],
  }));

  await expectStatus(page, "stopped", 45_000);
  await expect(page.getByTestId("stop-reason")).toContainText("iteration limit");
  await expect(page.getByTestId("loop-status")).not.toContainText("completed");
  await expect(page.getByTestId("claim-mismatch").first()).toBeVisible();
  expect(await page.getByTestId("claim-mismatch").count()).toBeGreaterThanOrEqual(2);

  const flagged = page
    .getByTestId("iteration")
    .filter({ has: page.getByTestId("claim-mismatch") })
    .first();
  await flagged.getByRole("button").first().click();
  await expect(flagged).toContainText("claims done");
  await expect(flagged).toContainText("not complete");
  await shot(page, "loop-detail-claims");
});

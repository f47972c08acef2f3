// The iteration in flight, live in another tab: a slow demo agent prints a
// line every 3 s; a second tab on the loop page shows each line (and the
// heartbeat) within 1 s of the agent printing it, before the iteration ends.
import { expect, test } from "@playwright/test";
import { signIn, trpc } from "./support/auth";
import { shot } from "./support/loops";

declare global {
  interface Window {
    liveLatencies?: number[];
  }
}

test("a slow agent's output and heartbeat reach another tab within 1 s", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, "operator");
  const created = await trpc(page.request, "loops.create", {
    goal: "Print slowly for the live view",
    agent: { kind: "demo", delayMs: 12_000, failureRate: 0 },
    loop: { stop: { maxIterations: 2, noProgressIterations: 0 }, completion: { allowNoEvidence: true } },
    start: true,
  });
  expect(created.status).toBe(200);
  const id = (created.data as { id: string }).id;

  // Another tab of the same browser, on the loop page.
  const other = await page.context().newPage();
  await other.goto(`/loops/${id}`);
  const output = other.getByTestId("live-output");
  // Watched, as a reader would: the card sits below the charts, and scrolled out of view it holds still.
  await output.scrollIntoViewIfNeeded();
  await expect(output).toContainText("drafting part 1 of 4 for iteration 1", { timeout: 30_000 });
  // From now on, every new batch the tab shows is timed against the moment the agent printed it.
  await other.evaluate(() => {
    window.liveLatencies = [];
    let seen = document.querySelector("[data-testid=live-output]")?.getAttribute("data-lines");
    new MutationObserver(() => {
      const pre = document.querySelector("[data-testid=live-output]");
      const lines = pre?.getAttribute("data-lines");
      if (!pre || lines === seen) return;
      seen = lines;
      // A panel reset (the next iteration starting, "no output yet") carries no output time: not a batch.
      const outputAt = pre.getAttribute("data-output-at");
      if (outputAt) window.liveLatencies!.push(Date.now() - Number(outputAt));
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
  await expect(output).toContainText("drafting part 3 of 4 for iteration 1", { timeout: 30_000 });
  // Still the iteration in flight: no iteration stored yet.
  await expect(other.getByRole("tab", { name: /Iterations \(0\)/ })).toBeVisible();
  await expect(other.getByTestId("live-heartbeat")).toContainText(/heartbeat \d+ s ago/);
  await expect(other.getByTestId("live-elapsed")).toContainText(/running · \d+ s/);
  await shot(other, "live-iteration-other-tab");

  const latencies = await other.evaluate(() => window.liveLatencies ?? []);
  console.log(`live output latency to the other tab (ms): ${latencies.join(", ")}`);
  expect(latencies.length).toBeGreaterThanOrEqual(2);
  expect(Math.max(...latencies), `latencies ${latencies.join(", ")} ms`).toBeLessThan(1_000);

  // Scrolled away, the card holds still; scrolled back, it shows what was printed meanwhile
  // (the last part of iteration 1, or already iteration 2's output).
  await other.evaluate(() => window.scrollTo(0, 0));
  await other.waitForTimeout(4_000);
  await output.scrollIntoViewIfNeeded();
  await expect(output).toContainText(/drafting part 4 of 4 for iteration 1|for iteration 2/, { timeout: 5_000 });

  // The list in the first tab says how long it has been running and when it last printed.
  await page.goto("/");
  await expect(page.getByTestId("running-line").first()).toContainText(/running · .* · last output \d+ s ago/, {
    timeout: 15_000,
  });
  await trpc(page.request, "loops.controls.terminate", { id, reason: "done watching" });
});

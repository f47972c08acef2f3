// A silent agent's alarm reaches the open loop page by itself: a real CLI
// agent (server/agents/fixtures/silent-hang.sh) prints one line and goes
// quiet; with `alarms.silentAfterSeconds: 3` the server's alarm check raises
// the alarm and the event stream brings it to the header within about a
// second, with nothing else (no iteration, no watchdog) making the page refetch.
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { signIn, trpc } from "./support/auth";
import { attachShot, watchConsole } from "./support/evidence";
import { expectStatus } from "./support/loops";

declare global {
  interface Window {
    silentSeenAt?: number;
  }
}

test("a silent agent's alarm shows in the header within about a second", async ({ page }) => {
  test.setTimeout(90_000);
  const consoleProblems = watchConsole(page);
  // An admin: only an admin may run an agent with the sandbox off.
  await signIn(page, "admin");
  const created = await trpc(page.request, "loops.create", {
    goal: "Say one thing, then nothing",
    agent: {
      kind: "command",
      argv: ["/bin/sh", join(process.cwd(), "server/agents/fixtures/silent-hang.sh")],
      timeoutSeconds: 120,
      killGraceMs: 200,
      // The script lives in the app folder, which a sandboxed agent cannot see.
      sandbox: "off",
    },
    loop: {
      stop: { maxIterations: 1, noProgressIterations: 0 },
      completion: { allowNoEvidence: true },
      // No watchdog: its health events would make the page refetch anyway.
      health: { checkInterval: 0 },
      alarms: { silentAfterSeconds: 3 },
    },
    start: true,
  });
  expect(created.status, JSON.stringify(created.error)).toBe(200);
  const id = (created.data as { id: string }).id;
  await page.goto(`/loops/${id}`);
  const output = page.getByTestId("live-output");
  await expect(output).toContainText("starting, then silence", { timeout: 30_000 });
  await page.evaluate(() => {
    const check = () => {
      if (window.silentSeenAt) return;
      if (document.querySelector("[data-testid=header-alarms]")?.textContent?.includes("Silent agent"))
        window.silentSeenAt = Date.now();
    };
    check();
    new MutationObserver(check).observe(document.body, { subtree: true, childList: true, characterData: true });
  });

  const alarm = page.getByTestId("header-alarms");
  await expect(alarm).toContainText(/Silent agent: no output or heartbeat for \d+ s/, { timeout: 15_000 });
  // The alarm is due 3 s after the agent's last line; the page shows it about a second later at most.
  const outputAt = Number(await output.getAttribute("data-output-at"));
  const seenAt = await page.evaluate(() => window.silentSeenAt!);
  const late = seenAt - (outputAt + 3_000);
  test.info().annotations.push({ type: "silent-alarm-to-header", description: `${late} ms after it was due` });
  expect(late, "ms from the alarm being due to the header showing it").toBeLessThan(1_500);
  // Still the same iteration in flight: nothing but the alarm moved the header.
  await expect(page.getByRole("tab", { name: /Iterations \(0\)/ })).toBeVisible();
  await attachShot(page, "silent-alarm-in-header");

  await page.getByRole("tab", { name: "Audit log" }).click();
  await expect(
    page
      .getByTestId("audit-row")
      .filter({ hasText: /silent.*alarm/i })
      .first(),
  ).toBeVisible();

  // Kill the hung agent, then stop the loop.
  await trpc(page.request, "loops.controls.kill", { id, reason: "silent spec done" });
  await expectStatus(page, "paused", 30_000);
  await trpc(page.request, "loops.controls.terminate", { id, reason: "silent spec done" });
  await expectStatus(page, "stopped", 30_000);
  expect(consoleProblems()).toEqual([]);
});

// A silent agent's alarm reaches the open loop page by itself: a real CLI
// agent (server/agents/fixtures/silent-hang.sh) prints one line and goes
// quiet; with `alarms.silentAfterSeconds: 10` the server's alarm check raises
// the alarm and the event stream brings it to the header within about a
// second, with nothing else (no iteration, no watchdog) making the page refetch.
import { expect, test } from "@playwright/test";
import { signIn, trpc } from "./support/auth";
import { attachShot, watchConsole } from "./support/evidence";
import { expectStatus, openSilentAgentLoop } from "./support/loops";

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
  const id = await openSilentAgentLoop(page, "Say one thing, then nothing", {
    // No watchdog: its health events would make the page refetch anyway.
    health: { checkInterval: 0 },
    // Long enough for the page to load and its stream to connect before the alarm is due.
    alarms: { silentAfterSeconds: 10 },
  });
  const output = page.getByTestId("live-output");
  await expect(output).toContainText("starting, then silence", { timeout: 30_000 });
  await expect(page.getByText("Live", { exact: true })).toBeVisible();
  // The page is loaded and listening before the alarm is due, so what follows is the push alone.
  const outputAt = Number(await output.getAttribute("data-output-at"));
  expect(Date.now(), "the page was ready before the alarm was due").toBeLessThan(outputAt + 10_000);
  await expect(page.getByTestId("header-alarms")).toHaveCount(0);
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
  // The alarm is due 10 s after the agent's last line; the page shows it about a second later at most.
  const seenAt = await page.evaluate(() => window.silentSeenAt!);
  const late = seenAt - (outputAt + 10_000);
  const events = await trpc(page.request, "events.list", { loopId: id, types: ["alarm_raised"] }, "query");
  const raised = (events.data as { items?: { createdAt: string }[]; events?: { createdAt: string }[] }) ?? {};
  const raisedAt = new Date((raised.items ?? raised.events ?? [])[0]?.createdAt ?? NaN).getTime();
  test.info().annotations.push({
    type: "silent-alarm-to-header",
    description: `shown ${late} ms after it was due (raised ${raisedAt - outputAt - 10_000} ms after, shown ${seenAt - raisedAt} ms after the raise)`,
  });
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

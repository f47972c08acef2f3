// A stuck agent, seen live: a real CLI agent (server/agents/fixtures/
// silent-hang.sh) prints one line and hangs silent. The watchdog nudges it;
// the loop page shows the nudge (and the health going "stuck") while the
// iteration is still in flight, long before the escalation ends it.
import { expect, test } from "@playwright/test";
import { signIn, trpc } from "./support/auth";
import { attachShot, watchConsole } from "./support/evidence";
import { expectStatus, openSilentAgentLoop } from "./support/loops";

test("a stuck agent's nudge appears on the loop page before the iteration ends", async ({ page }) => {
  test.setTimeout(120_000);
  const consoleProblems = watchConsole(page);
  // An admin: only an admin may run an agent with the sandbox off.
  await signIn(page, "admin");
  const id = await openSilentAgentLoop(page, "Hang silently so the watchdog has to nudge", {
    // Nudged after ~2 s of silence, escalated after two nudges, terminated only 60 s after that.
    health: { stuckAfter: 2, nudgeInterval: 2, nudgesBeforeEscalation: 2, escalationTimeout: 60, checkInterval: 0.5 },
  });

  const live = page.getByTestId("live-iteration");
  // The card holds still while scrolled out of view; an operator watching the agent has it on screen.
  await live.scrollIntoViewIfNeeded();
  await expect(page.getByTestId("live-output")).toContainText("starting, then silence", { timeout: 30_000 });
  const nudges = page.getByTestId("live-interventions");
  await expect(nudges).toContainText(/nudge/i, { timeout: 20_000 });
  // Still the iteration in flight: none is stored yet, and the card says how it is doing.
  await expect(live).toBeVisible();
  await expect(live).toContainText("Iteration 1");
  await expect(live).toContainText("stuck");
  await expect(page.getByRole("tab", { name: /Iterations \(0\)/ })).toBeVisible();
  await expectStatus(page, "running");
  await attachShot(page, "stuck-agent-nudged-in-flight");

  // The escalation follows live as well, still before the iteration ends.
  await expect(nudges).toContainText(/escalate/i, { timeout: 20_000 });
  await expect(page.getByRole("tab", { name: /Iterations \(0\)/ })).toBeVisible();
  await attachShot(page, "stuck-agent-escalated-in-flight");

  // Kill the hung agent (a terminate would wait for the iteration's end), then stop the loop.
  const killed = await trpc(page.request, "loops.controls.kill", { id, reason: "stuck spec done" });
  expect(killed.status, JSON.stringify(killed.error)).toBe(200);
  await expectStatus(page, "paused", 30_000);
  await expect(page.getByRole("tab", { name: /Iterations \(1\)/ })).toBeVisible();
  await trpc(page.request, "loops.controls.terminate", { id, reason: "stuck spec done" });
  await expectStatus(page, "stopped", 30_000);
  expect(consoleProblems()).toEqual([]);
});

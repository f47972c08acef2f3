// A control clicked in one tab, seen in another: two pages of the same
// signed-in browser on one loop page; tab A clicks Interrupt on a loop that
// waits between iterations (applied at once: paused) and then Resume, tab B
// records when its status badge changes. Each sample is the time from the
// click in A to B's new status (a state change, never the next iteration: the
// loop paces 10 min between iterations, and a resumed one goes back to waiting).
import type { Page } from "@playwright/test";
import { call, until, type BenchApp } from "./ui-app";

export interface ControlLatencyFigures {
  /** ms from the click in tab A to tab B's status badge changing. */
  samples: number[];
  /** The status changes sampled, e.g. "waiting→paused". */
  changes: string[];
}

const statusOf = (page: Page) =>
  page.evaluate(() => document.querySelector("[data-testid=loop-status] span")?.textContent ?? "");

export async function measureControlLatency(app: BenchApp, samples = 30): Promise<ControlLatencyFigures> {
  const api = app.context.request;
  const loop = await call(api, app.base, "loops.create", {
    goal: "Bench: a loop to pause and resume from another tab",
    agent: { kind: "demo", failureRate: 0, earlyClaimRate: 0, delayMs: 0, stepsToComplete: 50 },
    loop: {
      stop: { maxIterations: 300, noProgressIterations: 0 },
      completion: { allowNoEvidence: true },
      pacing: { delayMs: 600_000 },
    },
  });
  const id = String(loop.id);
  const status = async () =>
    ((await call(api, app.base, "loops.byId", { id }, true)).loop as { status: string }).status;
  await until(async () => (await status()) === "waiting", 30_000, "the loop to wait between iterations");
  const [a, b] = [await app.context.newPage(), await app.context.newPage()];
  const result: ControlLatencyFigures = { samples: [], changes: [] };
  try {
    for (const page of [a, b]) {
      await page.goto(`${app.base}/loops/${id}`);
      await page.getByTestId("loop-status").getByText("waiting").waitFor();
    }
    // Both pages settled (their first refetches done) before the first sample.
    await a.waitForTimeout(1500);
    for (let i = 0; i < samples; i++) {
      const before = await statusOf(b);
      const control = before === "paused" ? "Resume" : "Interrupt";
      // Tab A offers it once its own refetch after the last change is in.
      await a
        .locator("[role=toolbar][aria-label='Loop controls'] button:enabled", {
          hasText: new RegExp(`^\\s*${control}`),
        })
        .first()
        .waitFor({ timeout: 10_000 });
      // B resolves with the wall-clock time its badge first shows something else.
      const seen = b.evaluate(
        (old) =>
          new Promise<[number, string]>((resolve) => {
            // No named helpers in here: tsx would wrap them in a __name() the page does not have.
            const observer = new MutationObserver(() => {
              const now = document.querySelector("[data-testid=loop-status] span")?.textContent ?? "";
              if (now !== old) {
                observer.disconnect();
                resolve([Date.now(), now]);
              }
            });
            observer.observe(document.body, { subtree: true, childList: true, characterData: true });
          }),
        before,
      );
      // Not left unhandled if the click below fails and the page closes under it.
      seen.catch(() => undefined);
      const clickedAt = await a.evaluate((name) => {
        const bar = document.querySelector("[role=toolbar][aria-label='Loop controls']");
        const button = [...(bar?.querySelectorAll("button") ?? [])].find(
          (el) => el.textContent?.trim().startsWith(name) && !el.disabled,
        );
        if (!button) throw new Error(`no enabled ${name} button in the control bar`);
        const at = Date.now();
        button.click();
        return at;
      }, control);
      const [seenAt, after] = await seen;
      result.samples.push(seenAt - clickedAt);
      result.changes.push(`${before}→${after}`);
      // Back at rest (paused, or waiting again after the resumed loop's instant iteration) in both tabs.
      const settled = control === "Interrupt" ? ["paused"] : ["waiting"];
      await until(
        async () => settled.includes(await status()),
        30_000,
        `the loop to settle after ${control} (sampled so far: ${result.changes.join(", ")})`,
      );
      for (const page of [a, b]) await page.getByTestId("loop-status").getByText(settled[0]!).waitFor();
      await a.waitForTimeout(200);
    }
    return result;
  } finally {
    await a.close();
    await b.close();
    await call(api, app.base, "loops.controls.terminate", { id, reason: "bench over" }).catch(() => undefined);
  }
}

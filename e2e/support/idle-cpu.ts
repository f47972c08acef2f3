// Idle main-thread time from the Chrome DevTools Performance metrics, shared
// by the e2e check (the measurement works) and `npm run bench` (the figures).
import type { Page } from "@playwright/test";

/** Main-thread task time (ms) the page spends over `ms` of doing nothing (CDP Performance.TaskDuration). */
export async function idleTaskMs(page: Page, ms: number): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable");
  const taskSeconds = async () =>
    (await cdp.send("Performance.getMetrics")).metrics.find((m) => m.name === "TaskDuration")?.value ?? NaN;
  const before = await taskSeconds();
  await page.waitForTimeout(ms);
  const after = await taskSeconds();
  await cdp.detach();
  return (after - before) * 1000;
}

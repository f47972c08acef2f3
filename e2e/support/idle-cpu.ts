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

/**
 * Both the wall-clock task time (TaskDuration, the figure the targets are
 * set in) and the main thread's CPU time (ThreadTime), which a loaded machine
 * inflates far less, so before/after comparisons on a shared box mean something.
 */
export async function idleMainThread(page: Page, ms: number): Promise<{ taskMs: number; cpuMs: number }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable");
  const read = async () => {
    const { metrics } = await cdp.send("Performance.getMetrics");
    const get = (name: string) => metrics.find((m) => m.name === name)?.value ?? NaN;
    return { task: get("TaskDuration"), cpu: get("ThreadTime") };
  };
  const before = await read();
  await page.waitForTimeout(ms);
  const after = await read();
  await cdp.detach();
  return { taskMs: (after.task - before.task) * 1000, cpuMs: (after.cpu - before.cpu) * 1000 };
}

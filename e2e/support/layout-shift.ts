// Cumulative Layout Shift as Chromium reports it (layout-shift entries,
// grouped into session windows: gaps < 1 s, windows ≤ 5 s, the worst
// window counts), shared by the e2e check and `npm run bench`.
import type { Page } from "@playwright/test";

declare global {
  interface Window {
    __layoutShifts?: { value: number; startTime: number; hadRecentInput: boolean }[];
  }
}

/** Call before `page.goto`: records every layout shift from the first paint. */
export async function recordLayoutShifts(page: Page) {
  await page.addInitScript(() => {
    window.__layoutShifts = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as unknown as { value: number; startTime: number; hadRecentInput: boolean }[])
        window.__layoutShifts!.push({ value: e.value, startTime: e.startTime, hadRecentInput: e.hadRecentInput });
    }).observe({ type: "layout-shift", buffered: true });
  });
}

/** The page's CLS so far (the worst session window of shifts not caused by input). */
export async function cumulativeLayoutShift(page: Page): Promise<number> {
  const shifts = await page.evaluate(() => window.__layoutShifts ?? []);
  let worst = 0;
  let current = 0;
  let windowStart = -Infinity;
  let last = -Infinity;
  for (const s of shifts.filter((x) => !x.hadRecentInput)) {
    if (s.startTime - last > 1000 || s.startTime - windowStart > 5000) {
      current = 0;
      windowStart = s.startTime;
    }
    current += s.value;
    last = s.startTime;
    worst = Math.max(worst, current);
  }
  return worst;
}

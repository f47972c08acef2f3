// Layout shift of the loop list on a phone (390 × 844): from navigation until
// the list and its late parts (badges, sparklines, live rows) have settled.
import type { BenchApp } from "./ui-app";
import { cumulativeLayoutShift, recordLayoutShifts } from "../e2e/support/layout-shift";

export async function measureListCls(app: BenchApp, runs = 3, settleMs = 5000): Promise<number[]> {
  const context = await app.browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 3,
    isMobile: true,
    hasTouch: true,
    storageState: await app.context.storageState(),
  });
  try {
    const samples: number[] = [];
    for (let i = 0; i < runs; i++) {
      const page = await context.newPage();
      await recordLayoutShifts(page);
      await page.goto(`${app.base}/`);
      await page.waitForTimeout(settleMs);
      samples.push(await cumulativeLayoutShift(page));
      await page.close();
    }
    return samples;
  } finally {
    await context.close();
  }
}

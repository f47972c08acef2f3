import { withBenchApp } from "../bench/ui-app";
import { idleTaskMs } from "../e2e/support/idle-cpu";
await withBenchApp(process.cwd(), 3120, async (app) => {
  const page = await app.context.newPage();
  const reqs: string[] = [];
  page.on("request", (r) => reqs.push(new URL(r.url()).pathname.replace("/api/trpc/", "")));
  await page.goto(`${app.base}/loops/${app.runningId}`);
  await page.getByTestId("score-chart").waitFor();
  await page.waitForTimeout(2000);
  reqs.length = 0;
  const ms = await idleTaskMs(page, 10000);
  const counts: Record<string, number> = {};
  for (const r of reqs) counts[r] = (counts[r] ?? 0) + 1;
  console.log("running idle ms", ms.toFixed(0), counts);
  const events = await page.evaluate(() => 0);
  void events;
});

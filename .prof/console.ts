import { withBenchApp } from "../bench/ui-app";
await withBenchApp(process.cwd(), 3120, async (app) => {
  const page = await app.context.newPage();
  page.on("console", (m) => console.log("console", m.type(), m.text().slice(0, 300)));
  page.on("pageerror", (e) => console.log("pageerror", e.message.slice(0, 300)));
  await page.goto(`${app.base}/loops/${app.finishedId}`);
  await page.getByTestId("score-chart").waitFor();
  await page.waitForTimeout(3000);
  await page.goto(`${app.base}/`);
  await page.waitForTimeout(3000);
});

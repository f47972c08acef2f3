import { withBenchApp } from "../bench/ui-app";
import { idleTaskMs } from "../e2e/support/idle-cpu";
await withBenchApp(process.cwd(), 3120, async (app) => {
  const page = await app.context.newPage();
  await page.goto(`${app.base}/loops/${app.runningId}`);
  await page.getByTestId("score-chart").waitFor();
  await page.waitForTimeout(2000);
  const run = async (label: string) => console.log(label, (await idleTaskMs(page, 10000)).toFixed(0));
  await run("A normal");
  await page.addStyleTag({ content: 'section[aria-label="Charts"] { display: none !important }' });
  await run("B charts hidden");
  await page.getByRole("tab", { name: "Alerts" }).click();
  await page.waitForTimeout(1000);
  await run("C charts hidden + alerts tab");
  await page.getByRole("tab", { name: /Iterations/ }).click();
  await page.waitForTimeout(1000);
  await run("D charts hidden, iterations tab");
  await run("E again");
});

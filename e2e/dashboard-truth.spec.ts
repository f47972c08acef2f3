// The loop page tells one story while a loop runs: the header's iteration
// count, the Iterations tab's count, the newest row of the iteration list and
// the last iteration of every chart agree at every iteration of a 60-iteration
// loop, followed live with no reload (issue 31: the list said "No iterations
// yet" under "Iterations (5)", the charts lagged the header by tens of
// iterations). Also: a loop with no alerts shows no error on its Alerts tab.
import { expect, request as playwrightRequest, test, type Page } from "@playwright/test";
import { signIn, trpc } from "./support/auth";
import { expectStatus } from "./support/loops";

const CHARTS = ["score-chart", "cost-chart", "token-chart", "health-timeline"] as const;
const MAX = 60;

/** Everything the page says about how far the loop got, read in one go (one frame). */
async function snapshot(page: Page) {
  return page.evaluate((charts) => {
    const header = document.querySelector('[data-testid="iteration-count"]')?.textContent ?? "";
    const tab = [...document.querySelectorAll('[role="tab"]')].find((t) => t.textContent?.startsWith("Iterations"));
    const newest = document.querySelector('[data-testid="iteration"]')?.getAttribute("data-number") ?? "0";
    const lastX = Object.fromEntries(
      charts.map((c) => [c, Number(document.querySelector(`[data-testid="${c}"]`)?.getAttribute("data-last-x") ?? -1)]),
    );
    return {
      header: Number(/^(\d+)/.exec(header.trim())?.[1] ?? -1),
      tab: Number(/\((\d+)\)/.exec(tab?.textContent ?? "")?.[1] ?? 0),
      list: Number(newest),
      ...lastX,
    };
  }, CHARTS);
}

const agree = (s: Record<string, number>) => new Set(Object.values(s)).size === 1;

test("header, iteration list and the four charts agree at every iteration of a live 60-iteration loop", async ({
  page,
}) => {
  test.setTimeout(300_000);
  await signIn(page, "operator");
  const created = await trpc(page.request, "loops.create", {
    goal: "Write a checklist for the live dashboard truth check",
    agent: { kind: "demo", delayMs: 900, stepsToComplete: 50, failureRate: 0, earlyClaimRate: 0, seed: 7 },
    loop: {
      stop: { maxIterations: MAX, scoreThreshold: 0, noProgressIterations: 0 },
      completion: { evidence: ["score"], allowNoEvidence: true },
    },
    start: false,
  });
  expect(created.status, JSON.stringify(created.error)).toBe(200);
  const id = (created.data as { id: string }).id;
  await page.goto(`/loops/${id}`);
  // A mark on this document: a reload would lose it.
  await page.evaluate(() => Object.assign(window, { __sameDocument: true }));

  // No alerts on this loop: its Alerts tab shows the mutes and no error.
  await page.getByRole("tab", { name: "Alerts" }).click();
  await expect(page.getByRole("list", { name: "Alert mutes" })).toBeVisible();
  await expect(page.getByRole("tabpanel").getByRole("alert")).toHaveCount(0);
  await page.getByRole("tab", { name: /^Iterations/ }).click();

  const started = await trpc(page.request, "loops.controls.start", { id });
  expect(started.status, JSON.stringify(started.error)).toBe(200);

  // After each iteration the header moves to n: every other place must say n too, before the loop moves on.
  const agreedAt = new Set<number>();
  const history: Record<string, number>[] = [];
  for (let n = 1; n <= MAX; n++) {
    await expect.poll(async () => (await snapshot(page)).header, { timeout: 30_000 }).toBeGreaterThanOrEqual(n);
    await expect
      .poll(
        async () => {
          const s = await snapshot(page);
          history.push(s);
          if (agree(s)) agreedAt.add(s.header);
          return agreedAt.has(n) || (agree(s) && s.header >= n);
        },
        { timeout: 5_000, intervals: [50], message: `iteration ${n}: ${JSON.stringify(history.at(-1))}` },
      )
      .toBe(true);
    // The same numbers everywhere, never a place ahead of or behind the header for long.
    n = Math.max(n, ...agreedAt);
  }
  await expectStatus(page, /stopped|completed|failed/, 30_000);
  await expect.poll(async () => agree(await snapshot(page))).toBe(true);
  expect((await snapshot(page)).header).toBe(MAX);
  expect(await page.evaluate(() => "__sameDocument" in window), "the page was never reloaded").toBe(true);
  // Most iterations were seen agreeing one by one (a slow machine may fold two into one read).
  expect(agreedAt.size, JSON.stringify(history.slice(-5))).toBeGreaterThanOrEqual(MAX / 2);

  // Export from the loop page (signed in, no share link): the shared report's data, as JSON and Markdown.
  await expect(page.getByTestId("loop-export").getByRole("link", { name: "JSON" })).toBeVisible();
  const json = await page.request.get(`/loops/${id}/export/json`);
  expect(json.status()).toBe(200);
  expect(((await json.json()) as { loop: { id: string } }).loop.id).toBe(id);
  const markdown = await page.request.get(`/loops/${id}/export/markdown`);
  expect(markdown.headers()["content-disposition"]).toContain(".md");
  expect(await markdown.text()).toContain("## End-of-run report");
  const stranger = await playwrightRequest.newContext({ baseURL: test.info().project.use.baseURL });
  const anonymous = await stranger.get(`/loops/${id}/export/json`, { maxRedirects: 0 });
  expect(anonymous.headers()["content-disposition"]).toBeUndefined();
  await stranger.dispose();

  // "Fork from #N" asks first, and a double click on its confirmation makes one fork.
  const loopsNow = async () =>
    ((await trpc(page.request, "loops.list", { limit: 100 }, "query")).data as { items: unknown[] }).items.length;
  const before = await loopsNow();
  const newest = page.locator('[data-testid="iteration"][data-number="60"]');
  await newest.getByRole("button").first().click();
  // A demo loop has no git workspace: the server offers no roll back and no worktree to remove.
  await expect(newest.getByRole("button", { name: "Fork from #60" })).toBeVisible();
  await expect(newest.getByRole("button", { name: /^Roll back/ })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Remove worktree" })).toHaveCount(0);
  await newest.getByRole("button", { name: "Fork from #60" }).click();
  const confirm = page.getByRole("dialog", { name: "Fork from iteration 60" });
  await confirm.getByRole("button", { name: "Fork and start" }).dblclick();
  await page.waitForURL((url) => !url.pathname.endsWith(id), { timeout: 30_000 });
  await expect.poll(loopsNow).toBe(before + 1);
  await page.waitForTimeout(1_000);
  expect(await loopsNow()).toBe(before + 1);
});

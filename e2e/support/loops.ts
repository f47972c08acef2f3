// Loop helpers for the dashboard flows: create a loop through the New-loop
// form (from a template, adjusted in its JSON tab), and read what the loop
// page shows.
import { join } from "node:path";
import { expect, type Page } from "@playwright/test";
import { trpc } from "./auth";

export type Definition = Record<string, unknown> & {
  agent: Record<string, unknown>;
  loop?: Record<string, Record<string, unknown>>;
  scorers?: unknown[];
};

/** Opens /loops/new, picks a template, lets `adjust` change its definition in the JSON tab, submits; returns the new loop's id. */
export async function createLoopFromForm(
  page: Page,
  template: string,
  adjust: (d: Definition) => Definition = (d) => d,
): Promise<string> {
  await page.goto("/loops/new");
  await page.getByRole("radio", { name: template }).check();
  await page.getByRole("tab", { name: "JSON" }).click();
  const editor = page.getByLabel("Loop definition (JSON)");
  const definition = adjust(JSON.parse(await editor.inputValue()) as Definition);
  await editor.fill(JSON.stringify(definition, null, 2));
  await page.getByRole("button", { name: "Create and start loop" }).click();
  await page.waitForURL(/\/loops\/[0-9a-f-]{36}$/);
  return page.url().split("/").at(-1)!;
}

/** The demo template with a fast, predictable agent (no flaky failures). */
export const steadyDemo =
  (agent: Record<string, unknown>, loop: Record<string, Record<string, unknown>> = {}) =>
  (d: Definition): Definition => ({
    ...d,
    agent: { ...d.agent, failureRate: 0, ...agent },
    loop: { ...(d.loop ?? {}), ...loop, stop: { ...(d.loop?.stop ?? {}), ...(loop.stop ?? {}) } },
  });

export const statusBadge = (page: Page) => page.getByTestId("loop-status");

export async function expectStatus(page: Page, text: RegExp | string, timeout = 30_000) {
  await expect(statusBadge(page)).toContainText(text, { timeout });
}

/** How many points a chart of the loop page currently draws. */
export async function chartPoints(page: Page, testId: string): Promise<number> {
  return Number((await page.getByTestId(testId).getAttribute("data-points")) ?? "0");
}

export async function control(page: Page, name: string) {
  await page
    .getByRole("toolbar", { name: "Loop controls" })
    .getByRole("button", { name: new RegExp(`^${name}`) })
    .click();
}

export async function noHorizontalScroll(page: Page) {
  const [scroll, client, culprit] = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    // The innermost element that sticks out, so a failure names what to fix.
    const outside = [...document.querySelectorAll("body *")].filter(
      (el) => el.getBoundingClientRect().right > width + 1 && el.children.length === 0,
    );
    const el = outside[0];
    const name = el ? `${el.tagName.toLowerCase()} "${(el.textContent ?? "").trim().slice(0, 60)}"` : "none";
    return [document.documentElement.scrollWidth, width, name] as const;
  });
  expect(scroll, `page is ${scroll}px wide in a ${client}px viewport (sticking out: ${culprit})`).toBeLessThanOrEqual(
    client,
  );
}

export const shot = (page: Page, name: string) =>
  page.screenshot({ path: `test-results/screenshots/${name}.png`, fullPage: true });

/**
 * Creates and starts a loop whose real CLI agent (server/agents/fixtures/silent-hang.sh)
 * prints one line and then hangs silent, and opens its page; `loop` is the
 * definition's loop section (its health and alarm settings are what each spec is about).
 * Needs an admin session: only an admin may turn the sandbox off.
 */
export async function openSilentAgentLoop(page: Page, goal: string, loop: Record<string, unknown>): Promise<string> {
  const created = await trpc(page.request, "loops.create", {
    goal,
    agent: {
      kind: "command",
      argv: ["/bin/sh", join(process.cwd(), "server/agents/fixtures/silent-hang.sh")],
      timeoutSeconds: 120,
      killGraceMs: 200,
      // The script lives in the app folder, which a sandboxed agent cannot see.
      sandbox: "off",
    },
    loop: { stop: { maxIterations: 1, noProgressIterations: 0 }, completion: { allowNoEvidence: true }, ...loop },
    start: true,
  });
  expect(created.status, JSON.stringify(created.error)).toBe(200);
  const id = (created.data as { id: string }).id;
  await page.goto(`/loops/${id}`);
  return id;
}

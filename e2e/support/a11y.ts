// Accessibility helpers: an axe-core run that keeps only serious and critical
// violations (the suite's bar), the themes, and demo loops to look at.
import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, Page } from "@playwright/test";
import { trpc } from "./auth";

export { idleTaskMs } from "./idle-cpu";

export const WIDTHS = [1440, 390] as const;
export const THEMES = ["light", "dark"] as const;

/** Serious and critical WCAG 2.x A/AA violations on the page as it is now, one line each. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
    .analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

/** Sets the saved theme before any script runs, as the theme toggle would have. */
export async function applyTheme(page: Page, theme: "light" | "dark") {
  await page.addInitScript((t) => localStorage.setItem("theme", t), theme);
}

/** Waits until the loop's status is one of `statuses` (through the API, not the page). */
export async function loopReaches(api: APIRequestContext, id: string, statuses: string[], timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const detail = await trpc(api, "loops.byId", { id }, "query");
    const status = (detail.data as { loop?: { status: string } } | undefined)?.loop?.status;
    if (status && statuses.includes(status)) return status;
    if (Date.now() > deadline) throw new Error(`loop ${id} is ${status}, not ${statuses.join("/")}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** A demo loop through the API: `finished` runs it to its end, otherwise it keeps running slowly. */
export async function demoLoop(api: APIRequestContext, goal: string, finished: boolean): Promise<string> {
  const created = await trpc(api, "loops.create", {
    goal,
    agent: finished
      ? { kind: "demo", failureRate: 0, earlyClaimRate: 0, stepsToComplete: 3 }
      : { kind: "demo", failureRate: 0, earlyClaimRate: 0, delayMs: 1500, stepsToComplete: 50 },
    loop: {
      stop: { maxIterations: finished ? 4 : 200, noProgressIterations: 0 },
      completion: { allowNoEvidence: true },
    },
  });
  if (created.status !== 200) throw new Error(`loops.create failed: ${created.error?.message}`);
  const id = (created.data as { id: string }).id;
  if (finished) await loopReaches(api, id, ["completed", "stopped", "failed"]);
  return id;
}

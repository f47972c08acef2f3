// Evidence a spec leaves in its test run: screenshots attached to the
// Playwright report (not only written to disk), and the console errors and
// uncaught page errors seen while it ran, so a spec can assert there were none.
import { test, type ConsoleMessage, type Page } from "@playwright/test";

/** Screenshots `page` (full page) and attaches it to the running test as `name`. */
export async function attachShot(page: Page, name: string) {
  const body = await page.screenshot({ fullPage: true });
  await test.info().attach(name, { body, contentType: "image/png" });
}

/** Starts collecting console errors and page errors of `page`; call the result to read them. */
export function watchConsole(page: Page): () => string[] {
  const problems: string[] = [];
  page.on("console", (m: ConsoleMessage) => {
    if (m.type() === "error") problems.push(`console: ${m.text()} (${m.location().url})`);
  });
  page.on("pageerror", (e: Error) => problems.push(`page error: ${e.message}`));
  return () => [...problems];
}

// Lighthouse performance of the loop page, desktop and mobile presets, run
// against Debian's Chromium (the same binary the e2e suite uses; nothing is
// downloaded). Lighthouse opens its own tab over the DevTools port of a
// browser launched here and signs in with the bench's session cookie.
import lighthouse, { desktopConfig } from "lighthouse";
import { chromium } from "@playwright/test";
import { CHROMIUM, type BenchApp } from "./ui-app";

export interface LighthouseScore {
  score: number;
  tbtMs: number;
  lcpMs: number;
  cls: number;
}

async function freePort(): Promise<number> {
  const { createServer } = await import("node:net");
  return new Promise((resolve, reject) => {
    const srv = createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.once("error", reject);
  });
}

export async function measureLighthouse(app: BenchApp, path: string, formFactor: "desktop" | "mobile") {
  const port = await freePort();
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--headless", "--disable-gpu", "--no-first-run", `--remote-debugging-port=${port}`],
  });
  try {
    const result = await lighthouse(
      `${app.base}${path}`,
      {
        port,
        logLevel: "error",
        onlyCategories: ["performance"],
        extraHeaders: { Cookie: await app.cookieHeader() },
        // The page keeps an event stream open; it never goes network-quiet.
        maxWaitForLoad: 30_000,
      },
      formFactor === "desktop" ? desktopConfig : undefined,
    );
    if (!result) throw new Error("Lighthouse returned no result");
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.message}`);
    const audit = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
    return {
      score: Math.round((lhr.categories.performance?.score ?? NaN) * 100),
      tbtMs: audit("total-blocking-time"),
      lcpMs: audit("largest-contentful-paint"),
      cls: audit("cumulative-layout-shift"),
    } satisfies LighthouseScore;
  } finally {
    await browser.close();
  }
}

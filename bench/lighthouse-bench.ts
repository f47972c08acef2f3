// Lighthouse performance of the loop page, desktop and mobile presets, run
// against Debian's Chromium (the same binary the e2e suite uses; nothing is
// downloaded). Lighthouse opens its own tab over the DevTools port of a
// browser launched here and signs in with the bench's session cookie.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import lighthouse, { desktopConfig } from "lighthouse";
import { chromium } from "@playwright/test";
import { CHROMIUM, type BenchApp } from "./ui-app";

export interface LighthouseScore {
  score: number;
  tbtMs: number;
  lcpMs: number;
  cls: number;
  /**
   * Lighthouse's own measure of this machine's CPU at the time (a quiet desktop scores 1,000 or
   * more). Its throttling presets assume such a machine: a loaded one makes TBT look worse than it is.
   */
  benchmarkIndex: number;
  /** Bytes of JavaScript the page loaded (transferred, compressed), in KB. */
  scriptKb: number;
  /** Main-thread time of script evaluation and compilation, after throttling (bootup-time). */
  bootupMs: number;
}

interface NetworkRequest {
  resourceType?: string;
  transferSize?: number;
}

/** The full report of the last run of each page and form factor, to read its audits. */
const REPORT_DIR = join(process.cwd(), "tmp", "lighthouse");

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

export async function measureLighthouse(
  app: BenchApp,
  path: string,
  formFactor: "desktop" | "mobile",
  reportName?: string,
) {
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
    if (reportName) {
      mkdirSync(REPORT_DIR, { recursive: true });
      writeFileSync(join(REPORT_DIR, `${reportName}.json`), JSON.stringify(lhr));
    }
    const audit = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
    const requests = ((lhr.audits["network-requests"]?.details as { items?: NetworkRequest[] } | undefined)?.items ??
      []) as NetworkRequest[];
    const scriptBytes = requests
      .filter((r) => r.resourceType === "Script")
      .reduce((sum, r) => sum + (r.transferSize ?? 0), 0);
    return {
      score: Math.round((lhr.categories.performance?.score ?? NaN) * 100),
      tbtMs: audit("total-blocking-time"),
      lcpMs: audit("largest-contentful-paint"),
      cls: audit("cumulative-layout-shift"),
      benchmarkIndex: lhr.environment.benchmarkIndex,
      scriptKb: scriptBytes / 1024,
      bootupMs: audit("bootup-time"),
    } satisfies LighthouseScore;
  } finally {
    await browser.close();
  }
}

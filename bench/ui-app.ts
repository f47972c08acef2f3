// The built app for the browser figures: `next start` on a scratch SQLite
// database, a signed-in Chromium context, and a finished and a running demo
// loop to look at. Needs `npm run build` first (null otherwise).
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type APIRequestContext, type Browser, type BrowserContext } from "@playwright/test";

const ADMIN = { email: "bench@ralph.test", password: "bench-admin-password-1234" };
export const CHROMIUM = "/usr/bin/chromium";

export async function call(api: APIRequestContext, base: string, path: string, input: unknown, query = false) {
  const payload = JSON.stringify({ json: input });
  const headers = { origin: base, "content-type": "application/json" };
  const res = query
    ? await api.get(`${base}/api/trpc/${path}?input=${encodeURIComponent(payload)}`, { headers })
    : await api.post(`${base}/api/trpc/${path}`, { data: payload, headers });
  const body = (await res.json()) as { result?: { data?: { json?: unknown } }; error?: unknown };
  if (!res.ok()) throw new Error(`${path}: ${JSON.stringify(body.error)}`);
  return body.result?.data?.json as Record<string, unknown>;
}

export async function until(check: () => Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

export interface BenchApp {
  base: string;
  browser: Browser;
  /** Signed in as the admin, 1440 × 900. */
  context: BrowserContext;
  finishedId: string;
  runningId: string;
  /** The session cookie as a request header, for tools outside Playwright (Lighthouse). */
  cookieHeader: () => Promise<string>;
}

export async function withBenchApp<T>(
  root: string,
  port: number,
  fn: (app: BenchApp) => Promise<T>,
  /** Another database for the app (a PostgreSQL URL); the embedded SQLite file by default. */
  databaseUrl?: string,
): Promise<T | null> {
  if (!existsSync(join(root, ".next", "BUILD_ID"))) return null;
  const dataDir = mkdtempSync(join(tmpdir(), "ralph-bench-ui-"));
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(
    process.execPath,
    [join(root, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"],
    {
      cwd: root,
      stdio: "ignore",
      env: {
        // eslint-disable-next-line no-restricted-syntax -- a child server inherits PATH and the like, as in playwright.config.ts
        ...process.env,
        NEXT_TELEMETRY_DISABLED: "1",
        DATABASE_URL: databaseUrl ?? `file:${join(dataDir, "bench.db")}`,
        RALPH_DATA_DIR: dataDir,
        RALPH_WORKSPACE_ROOTS: tmpdir(),
        RALPH_ADMIN_EMAIL: ADMIN.email,
        RALPH_ADMIN_PASSWORD: ADMIN.password,
      },
    },
  );
  const exited = new Promise((r) => server.once("exit", r));
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
  });
  let runningId: string | null = null;
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const api = context.request;
  try {
    await until(async () => (await api.get(`${base}/api/health`)).ok(), 60_000, "the app to start");
    await call(api, base, "auth.signIn", ADMIN);
    const demo = (finished: boolean, goal = finished ? "Bench: a finished loop" : "Bench: a running loop") =>
      call(api, base, "loops.create", {
        goal,
        agent: finished
          ? { kind: "demo", failureRate: 0, earlyClaimRate: 0, stepsToComplete: 8 }
          : { kind: "demo", failureRate: 0, earlyClaimRate: 0, delayMs: 2000, stepsToComplete: 50 },
        loop: {
          stop: { maxIterations: finished ? 12 : 300, noProgressIterations: 0 },
          completion: { allowNoEvidence: true },
        },
      }).then((d) => String(d.id));
    // A list of some length for the layout-shift figure; the first is the loop page's finished loop.
    const finished = [await demo(true)];
    for (let i = 1; i <= 5; i++) finished.push(await demo(true, `Bench: another finished loop (${i})`));
    const finishedId = finished[0]!;
    for (const id of finished)
      await until(
        async () => {
          const d = await call(api, base, "loops.byId", { id }, true);
          return (d.loop as { isTerminal: boolean }).isTerminal;
        },
        90_000,
        "the finished loops",
      );
    runningId = await demo(false);
    const cookieHeader = async () => (await context.cookies(base)).map((c) => `${c.name}=${c.value}`).join("; ");
    return await fn({ base, browser, context, finishedId, runningId, cookieHeader });
  } finally {
    if (runningId)
      await call(api, base, "loops.controls.terminate", { id: runningId, reason: "bench over" }).catch(() => undefined);
    await browser.close();
    server.kill("SIGTERM");
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

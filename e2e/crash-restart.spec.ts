// Kill -9 the Next.js server while 20 loops are mid-iteration, start it again:
// its sweeper resumes every loop from its checkpoint through the route-handler
// job runtime. No iteration is stored twice, nothing is counted twice, and the
// interrupted attempts are recorded and run again. Real processes throughout:
// the server, and a CLI agent (test/fixtures/counting-agent.mjs).
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, request as playwrightRequest, test, type APIRequestContext } from "@playwright/test";
import { inheritedEnv } from "../server/env";

// A port of its own, free right now: a leftover server must never answer for this one.
const PORT = await new Promise<number>((resolve) => {
  const probe = createServer().listen(0, "127.0.0.1", () => {
    const { port } = probe.address() as AddressInfo;
    probe.close(() => resolve(port));
  });
});
const BASE = `http://127.0.0.1:${PORT}`;
const ADMIN = { email: "crash-admin@ralph.test", password: "crash-admin-password-1234" };

test.describe.configure({ mode: "serial", timeout: 180_000 });

function startServer(dir: string): ChildProcess {
  const child = spawn(
    process.execPath,
    ["node_modules/next/dist/bin/next", "start", "-p", String(PORT), "-H", "127.0.0.1"],
    {
      cwd: process.cwd(),
      env: {
        ...inheritedEnv(["PATH", "HOME"]),
        NODE_ENV: "production",
        PORT: String(PORT),
        DATABASE_URL: `file:${join(dir, "crash.db")}`,
        RALPH_DATA_DIR: dir,
        RALPH_ADMIN_EMAIL: ADMIN.email,
        RALPH_ADMIN_PASSWORD: ADMIN.password,
        RALPH_LEASE_MS: "2000",
        RALPH_HEARTBEAT_MS: "200",
        RALPH_SWEEP_INTERVAL_MS: "500",
      },
      stdio: "ignore",
    },
  );
  return child;
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((r) => child.once("exit", () => r()));

async function waitHealthy(child: ChildProcess) {
  for (let i = 0; i < 150; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    const ok = await fetch(`${BASE}/api/health`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("server did not become healthy");
}

async function call(api: APIRequestContext, path: string, input: unknown, kind: "query" | "mutation") {
  const payload = JSON.stringify({ json: input });
  const res =
    kind === "query"
      ? await api.get(`/api/trpc/${path}?input=${encodeURIComponent(payload)}`, { headers: { origin: BASE } })
      : await api.post(`/api/trpc/${path}`, {
          data: payload,
          headers: { origin: BASE, "content-type": "application/json" },
        });
  const body = (await res.json()) as { result?: { data?: { json?: unknown } }; error?: unknown };
  if (!res.ok()) throw new Error(`${path} answered ${res.status()}: ${JSON.stringify(body.error)}`);
  return body.result!.data!.json as never;
}

async function until<T>(probe: () => Promise<T>, done: (v: T) => boolean, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (done(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out; last: ${JSON.stringify(v).slice(0, 400)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

test("SIGKILL the server mid-iteration; on restart every loop resumes and finishes exactly once", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ralph-crash-e2e-"));
  const countFile = join(dir, "calls.txt");
  let server = startServer(dir);
  const api = await playwrightRequest.newContext({ baseURL: BASE });
  try {
    await waitHealthy(server);
    await call(api, "auth.signIn", ADMIN, "mutation");
    const agent = {
      kind: "command",
      preset: "generic",
      argv: [process.execPath, join(process.cwd(), "test/fixtures/counting-agent.mjs")],
      env: { COUNT_FILE: countFile, SLEEP_MS: "800" },
      timeoutSeconds: 60,
      killGraceMs: 200,
      // The script is in the app folder and the count file in the data folder, both hidden from a sandboxed agent.
      sandbox: "off",
    };
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const loop = {
        goal: `crash loop ${i}`,
        agent,
        loop: {
          stop: { maxIterations: 3, noProgressIterations: 0, maxConsecutiveFailures: 0 },
          health: { checkInterval: 0 },
          completion: { allowNoEvidence: true },
        },
        start: false,
      };
      ids.push(((await call(api, "loops.create", loop, "mutation")) as { id: string }).id);
    }
    for (const id of ids) await call(api, "loops.controls.start", { id }, "mutation");
    // Every loop has its first agent call in flight: kill -9.
    const calls = () => (existsSync(countFile) ? readFileSync(countFile, "utf8").trim().split("\n").length : 0);
    await until(
      async () => calls(),
      (n) => n >= 20,
      60_000,
    );
    server.kill("SIGKILL");
    await exited(server);

    server = startServer(dir);
    await waitHealthy(server);
    await until(
      async () => ((await call(api, "loops.list", { limit: 100 }, "query")) as { items: { status: string }[] }).items,
      (items) => items.length === 20 && items.every((l) => l.status === "stopped"),
      120_000,
    );

    let interrupted = 0;
    for (const id of ids) {
      const detail = (await call(api, "loops.byId", { id }, "query")) as {
        loop: { costUsd: number; tokensIn: number; stopType: string };
      };
      expect(detail.loop.stopType).toBe("max_iterations");
      const page = (await call(api, "loops.iterations", { id, limit: 50 }, "query")) as {
        items: { number: number; attempt: number; status: string; costUsd: number; tokensIn: number }[];
      };
      const done = page.items.filter((r) => r.status !== "interrupted");
      expect(done.map((r) => r.number).sort()).toEqual([1, 2, 3]);
      for (const r of page.items.filter((r) => r.status === "interrupted")) {
        interrupted++;
        expect(done.some((d) => d.number === r.number && d.attempt > r.attempt)).toBe(true);
      }
      // The three finished iterations cost 0.01 each. A killed attempt whose agent
      // had already printed its spend (before the step committed) keeps that
      // spend on its row, and the loop's totals are exactly the rows' sum.
      const killed = page.items.filter((r) => r.status === "interrupted");
      for (const r of killed) expect([0, 0.01]).toContain(r.costUsd);
      const killedCost = killed.reduce((sum, r) => sum + r.costUsd, 0);
      const killedTokens = killed.reduce((sum, r) => sum + r.tokensIn, 0);
      expect(done.reduce((sum, r) => sum + r.costUsd, 0)).toBeCloseTo(0.03, 10);
      expect(detail.loop.costUsd).toBeCloseTo(0.03 + killedCost, 10);
      expect(detail.loop.tokensIn).toBe(300 + killedTokens);
    }
    expect(interrupted).toBeGreaterThanOrEqual(1);
  } finally {
    await api.dispose();
    server.kill("SIGKILL");
    await exited(server);
  }
});

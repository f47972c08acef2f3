// No orphans through the real app: the Next.js server (SQLite, then
// PostgreSQL) runs a sandboxed 60 s agent; kill -9 of the server's whole
// process group leaves no process of that loop's agent within 2 s. After a
// restart the iteration runs once more (never beside the old agent), and the
// spend the killed agent reported is counted.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, request as playwrightRequest, test, type APIRequestContext } from "@playwright/test";
import { environHas, liveProcesses } from "../server/agents/process-identity";
import { createTempDatabase, type TempDatabase } from "../test/temp-database";
import { getEnv, inheritedEnv } from "../server/env";

const ADMIN = { email: "orphan-admin@ralph.test", password: "orphan-admin-password-1234" };

test.describe.configure({ mode: "serial", timeout: 180_000 });

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });

/** The first start reports spend and works for 60 s (with a grandchild); a re-run finishes at once. */
const AGENT = `first=yes; [ -s calls.txt ] && first=no
echo "$RALPH_ITERATION" >> calls.txt
if [ "$first" = yes ]; then
  echo '{"usage":{"input":500,"output":100,"cache":0},"cost":0.25}'
  sleep 60 &
  wait
fi
echo done
echo '{"usage":{"input":100,"output":20,"cache":0},"cost":0.01}'`;

function startServer(port: number, dir: string, databaseUrl: string): ChildProcess {
  return spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: process.cwd(),
    // Its own process group: the test kills the whole group, as a supervisor or the OOM killer might.
    detached: true,
    env: {
      ...inheritedEnv(["PATH", "HOME"]),
      NODE_ENV: "production",
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      RALPH_DATA_DIR: dir,
      RALPH_ADMIN_EMAIL: ADMIN.email,
      RALPH_ADMIN_PASSWORD: ADMIN.password,
      // Short enough that the restart does not wait long for the dead server's lease; long enough that a
      // freshly started server on a busy CI machine does not stall past half of it (the keeper then gives
      // the attempt up on purpose, and a third attempt runs: seen in CI with 2000 ms).
      RALPH_LEASE_MS: "6000",
      RALPH_HEARTBEAT_MS: "300",
      RALPH_SWEEP_INTERVAL_MS: "500",
    },
    stdio: "ignore",
  });
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((r) => child.once("exit", () => r()));

async function until<T>(probe: () => Promise<T> | T, done: (v: T) => boolean, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (done(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out; last: ${JSON.stringify(v).slice(0, 400)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function call(api: APIRequestContext, base: string, path: string, input: unknown, kind: "query" | "mutation") {
  const payload = JSON.stringify({ json: input });
  const res =
    kind === "query"
      ? await api.get(`${base}/api/trpc/${path}?input=${encodeURIComponent(payload)}`, { headers: { origin: base } })
      : await api.post(`${base}/api/trpc/${path}`, {
          data: payload,
          headers: { origin: base, "content-type": "application/json" },
        });
  const body = (await res.json()) as { result?: { data?: { json?: unknown } }; error?: unknown };
  if (!res.ok()) throw new Error(`${path} answered ${res.status()}: ${JSON.stringify(body.error)}`);
  return body.result!.data!.json as never;
}

const agentProcesses = (loopId: string) =>
  liveProcesses()
    .filter((p) => environHas(p.pid, `RALPH_LOOP_ID=${loopId}`))
    .map((p) => p.pid);

for (const kind of ["sqlite", "postgresql"] as const) {
  test(`kill -9 of the server's process group (${kind}): the agent is gone within 2 s; the iteration runs once more`, async () => {
    const dir = mkdtempSync(join(tmpdir(), "ralph-orphan-e2e-"));
    let database: TempDatabase | null = null;
    if (kind === "postgresql") {
      database = await createTempDatabase("postgresql", getEnv().RALPH_PG_ADMIN_URL, "e2e").catch(() => null);
      test.skip(!database, "PostgreSQL is not available");
    }
    const databaseUrl = database?.target.url ?? `file:${join(dir, "orphans.db")}`;
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const healthy = async (child: ChildProcess) =>
      until(
        async () => {
          if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
          return fetch(`${base}/api/health`)
            .then((r) => r.ok)
            .catch(() => false);
        },
        (ok) => ok,
        30_000,
      );

    let server = startServer(port, dir, databaseUrl);
    const api = await playwrightRequest.newContext();
    try {
      await healthy(server);
      await call(api, base, "auth.signIn", ADMIN, "mutation");
      const { id } = (await call(
        api,
        base,
        "loops.create",
        {
          goal: "outlive nothing",
          agent: { kind: "command", argv: ["/bin/sh", "-c", AGENT], timeoutSeconds: 120, killGraceMs: 500 },
          loop: {
            stop: { maxIterations: 1, noProgressIterations: 0, maxConsecutiveFailures: 0 },
            health: { checkInterval: 0 },
            completion: { allowNoEvidence: true },
          },
          start: true,
        },
        "mutation",
      )) as { id: string };
      const callsFile = join(dir, "workspaces", id, "calls.txt");

      // The agent runs (bubblewrap, its shell, the sleep) and has reported its spend.
      await until(
        () => agentProcesses(id).length,
        (n) => n >= 3,
        30_000,
      );
      await until(
        async () =>
          ((await call(api, base, "loops.byId", { id }, "query")) as { loop: { inflightAgent?: unknown } }).loop
            .inflightAgent as { spend?: { costUsd: number } } | null,
        (agent) => agent?.spend?.costUsd === 0.25,
        10_000,
      );

      const killedAt = Date.now();
      process.kill(-server.pid!, "SIGKILL");
      await until(
        () => agentProcesses(id).length,
        (n) => n === 0,
        2_000,
      );
      const goneMs = Date.now() - killedAt;
      console.info(`[${kind}] agent processes gone ${goneMs} ms after kill -9 of the server's process group`);
      await exited(server);

      server = startServer(port, dir, databaseUrl);
      await healthy(server);
      await call(api, base, "auth.signIn", ADMIN, "mutation");
      const detail = await until(
        async () =>
          (await call(api, base, "loops.byId", { id }, "query")) as {
            loop: { status: string; costUsd: number; tokensIn: number };
          },
        (d) => ["stopped", "completed", "failed"].includes(d.loop.status),
        60_000,
      );
      const page = (await call(api, base, "loops.iterations", { id, limit: 50 }, "query")) as {
        items: { number: number; attempt: number; status: string; costUsd: number; error?: string | null }[];
      };
      const rows = [...page.items].sort((a, b) => a.attempt - b.attempt);
      const why = rows.map((r) => `#${r.number}.${r.attempt} ${r.status}: ${r.error ?? ""}`).join("\n");
      expect(
        rows.map((r) => [r.number, r.attempt, r.status]),
        why,
      ).toEqual([
        [1, 1, "interrupted"],
        [1, 2, "succeeded"],
      ]);
      expect(rows[0]!.costUsd).toBeCloseTo(0.25, 10);
      expect(detail.loop.costUsd).toBeCloseTo(0.26, 10);
      expect(detail.loop.tokensIn).toBe(600);
      // Started twice: the killed run and the re-run, never two at once.
      expect(existsSync(callsFile) ? readFileSync(callsFile, "utf8").trim().split("\n") : []).toEqual(["1", "1"]);
    } finally {
      await api.dispose();
      try {
        process.kill(-server.pid!, "SIGKILL");
      } catch {
        // already gone
      }
      await exited(server);
      await database?.drop();
    }
  });
}

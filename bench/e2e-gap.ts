// What a user feels per iteration: the built app under `next start`, one loop
// whose command agent (test/fixtures/instant-agent.sh, a real process) answers
// at once. The script stamps its own start and end, so the gap from the end of
// one call to the start of the next is everything the runtime adds (process
// exit and spawn included), and a bare spawn of the same script is the agent's
// own process time. Needs `npm run build` first.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request, type APIRequestContext } from "@playwright/test";
import { inheritedEnv } from "../server/env";
import { percentile } from "./runtime-bench";

export const ADMIN = { email: "bench@ralph.test", password: "bench-admin-password-1234" };

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

/** Spawn → close of the script, as the executor's own spawn would see it without the runtime. */
function bareSpawn(script: string, cwd: string, stampFile: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const child = spawn(script, [], {
      cwd,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...inheritedEnv(["PATH"]), STAMP_FILE: stampFile } as unknown as NodeJS.ProcessEnv,
    });
    child.stdout.resume();
    child.stderr.resume();
    child.on("error", reject);
    child.on("close", () => resolve(performance.now() - t));
  });
}

const rssMb = (pid: number): number | null => {
  const status = readIf(`/proc/${pid}/status`);
  const kb = status && /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  return kb ? Number(kb) / 1024 : null;
};
const readIf = (path: string) => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
};
const childrenOf = (pid: number): number[] =>
  (readIf(`/proc/${pid}/task/${pid}/children`) ?? "").trim().split(/\s+/).filter(Boolean).map(Number);
const descendantsOf = (pid: number): number[] => childrenOf(pid).flatMap((c) => [c, ...descendantsOf(c)]);
const isSpawnHelper = (pid: number) => (readIf(`/proc/${pid}/cmdline`) ?? "").includes("spawn-helper");

/** Pairs of (start, end) stamps in ms, in call order. */
export function readStamps(file: string) {
  const calls: { start: number; end: number }[] = [];
  let start: number | null = null;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const [kind, value] = line.split(" ");
    const ms = Number(value) * 1000;
    if (kind === "s") start = ms;
    else if (kind === "e" && start !== null) {
      calls.push({ start, end: ms });
      start = null;
    }
  }
  return calls;
}

export interface GapFigures {
  iterations: number;
  /** End of one agent call → start of the next (ms). */
  gap: { p50: number; p99: number; max: number };
  /** Spawn → exit of the same script, alone (ms). */
  bare: { p50: number; p99: number };
  /** Inside the script, first stamp → last stamp (ms). */
  inScriptP50: number;
  /** The gap less the agent's own process time outside its body (bare spawn − in-script): what the runtime adds. */
  added: { p50: number; p99: number };
  seconds: number;
  /** Resident memory of the server process at the end, and of its spawn helper when it has one (MB). */
  serverRssMb: number | null;
  helperRssMb: number | null;
  /** CPU profiles of the server, when asked for. */
  profiles: string[];
  /** The agent script's own (start, end) stamps, wall ms, in call order. */
  calls: { start: number; end: number }[];
}

/** Null when the app is not built. `profileDir`: run the server with --cpu-prof into it. */
export async function measureEndToEndGap(
  root: string,
  opts: { port?: number; iterations?: number; profileDir?: string; probeFile?: string } = {},
): Promise<GapFigures | null> {
  if (!existsSync(join(root, ".next", "BUILD_ID"))) return null;
  const port = opts.port ?? 3291;
  const iterations = opts.iterations ?? 1000;
  const dataDir = mkdtempSync(join(tmpdir(), "ralph-bench-gap-"));
  const stampFile = join(dataDir, "stamps.txt");
  const script = join(root, "test/fixtures/instant-agent.sh");
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(
    process.execPath,
    [
      ...(opts.profileDir ? ["--cpu-prof", `--cpu-prof-dir=${opts.profileDir}`] : []),
      // Timestamps of the server's own phases, for bench/gap-tail.ts.
      ...(opts.probeFile ? ["--require", join(root, "bench/gap-probe.preload.cjs")] : []),
      join(root, "node_modules/next/dist/bin/next"),
      "start",
      "-p",
      String(port),
      "-H",
      "127.0.0.1",
    ],
    {
      cwd: root,
      stdio: "ignore",
      env: {
        // eslint-disable-next-line no-restricted-syntax -- a child server inherits PATH and the like, as in playwright.config.ts
        ...process.env,
        NODE_ENV: "production",
        NEXT_TELEMETRY_DISABLED: "1",
        DATABASE_URL: `file:${join(dataDir, "bench.db")}`,
        RALPH_DATA_DIR: dataDir,
        RALPH_WORKSPACE_ROOTS: tmpdir(),
        RALPH_ADMIN_EMAIL: ADMIN.email,
        RALPH_ADMIN_PASSWORD: ADMIN.password,
        ...(opts.probeFile ? { GAP_PROBE_FILE: opts.probeFile } : {}),
      },
    },
  );
  const exited = new Promise((r) => server.once("exit", r));
  const api = await request.newContext();
  try {
    await until(async () => (await api.get(`${base}/api/health`)).ok(), 120_000, "the app to start");
    await call(api, base, "auth.signIn", ADMIN);
    const started = performance.now();
    const loop = await call(api, base, "loops.create", {
      goal: "Bench: answer at once",
      agent: {
        kind: "command",
        preset: "generic",
        argv: [script],
        env: { STAMP_FILE: stampFile },
        timeoutSeconds: 60,
        // The script lives in the app folder, hidden from a sandboxed agent; the sandbox's own cost is its own figure.
        sandbox: "off",
      },
      loop: {
        stop: { maxIterations: iterations, noProgressIterations: 0, maxConsecutiveFailures: 0 },
        completion: { allowNoEvidence: true },
      },
    });
    const id = String(loop.id);
    // Watch the agent's own stamps rather than ask the server 4 times a second: a loop-page query is
    // tens of ms of the server's main thread, which would land in some gaps as a tail the runtime
    // does not cause. The server is asked once, at the end.
    await until(
      async () => existsSync(stampFile) && readStamps(stampFile).length >= iterations,
      30 * 60_000,
      "the agent's last call",
    );
    await until(
      async () => {
        const d = await call(api, base, "loops.byId", { id }, true);
        return (d.loop as { isTerminal: boolean }).isTerminal;
      },
      60_000,
      "the loop to finish",
    );
    const seconds = (performance.now() - started) / 1000;
    const serverRssMb = server.pid === undefined ? null : rssMb(server.pid);
    const helper = server.pid === undefined ? undefined : descendantsOf(server.pid).find(isSpawnHelper);
    const helperRssMb = helper === undefined ? null : rssMb(helper);
    const calls = readStamps(stampFile);
    const gaps = calls.slice(1).map((c, i) => c.start - calls[i]!.end);
    const inScript = calls.map((c) => c.end - c.start);
    const workspace = mkdtempSync(join(tmpdir(), "ralph-bench-bare-"));
    const bare: number[] = [];
    try {
      for (let i = 0; i < 5; i++) await bareSpawn(script, workspace, join(workspace, "stamps.txt"));
      for (let i = 0; i < 200; i++) bare.push(await bareSpawn(script, workspace, join(workspace, "stamps.txt")));
    } finally {
      rmSync(workspace, { recursive: true, force: true });
    }
    const outside = percentile(bare, 50) - percentile(inScript, 50);
    const added = gaps.map((g) => g - outside);
    return {
      iterations: calls.length,
      gap: { p50: percentile(gaps, 50), p99: percentile(gaps, 99), max: Math.max(...gaps) },
      bare: { p50: percentile(bare, 50), p99: percentile(bare, 99) },
      inScriptP50: percentile(inScript, 50),
      added: { p50: percentile(added, 50), p99: percentile(added, 99) },
      seconds,
      serverRssMb,
      helperRssMb,
      profiles: [],
      calls,
    };
  } finally {
    await api.dispose();
    server.kill("SIGTERM");
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The profiles `--cpu-prof` wrote into `dir`. */
export const profilesIn = (dir: string) =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith(".cpuprofile"))
        .map((f) => join(dir, f))
    : [];

// The gap with the defaults on (issue 36): the built app under `next start`,
// a command agent through the Claude Code preset, the sandbox on (warm, the
// default), the per-iteration git snapshot on, SQLite. Beside it, the same
// with the sandbox off, with each process starting its own sandbox
// (RALPH_SANDBOX_WARM=off), and with a command check; and ralphy-cli on the
// same fake `claude`, installed at bench time into a cache folder outside the
// repository (never a dependency). Rounds interleave the configurations so
// the machine's load falls on all of them alike.
//
// The `claude` here is a fake that answers at once (written below): the real
// CLI needs a network and a paid account, and the figure is what the
// orchestrator adds between calls, which a model's time would only hide.
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "@playwright/test";
import { inheritedEnv } from "../server/env";
import { ADMIN, call, readStamps, until } from "./e2e-gap";
import { percentile } from "./runtime-bench";

const FAKE_CLAUDE = `#!/bin/bash
# A fake \`claude\` that answers at once, for the bench only (see bench/defaults-gap.ts): it stamps
# its start and end to STAMP_FILE and prints the stream-json events \`claude -p\` ends with.
# \`--version\` answers as the verified CLI does: the loop's preflight asks it, inside the sandbox.
if [ "$1" = "--version" ]; then echo "2.1.332 (Claude Code)"; exit 0; fi
printf 's %s\\n' "$EPOCHREALTIME" >>"$STAMP_FILE"
cat >/dev/null
echo '{"type":"system","subtype":"init","session_id":"bench","tools":[],"model":"claude-bench"}'
echo '{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"done"}]},"session_id":"bench"}'
echo '{"type":"result","subtype":"success","is_error":false,"result":"done","session_id":"bench","total_cost_usd":0,"num_turns":1,"usage":{"input_tokens":10,"output_tokens":5,"cache_read_input_tokens":0,"cache_creation_input_tokens":0}}'
printf 'e %s\\n' "$EPOCHREALTIME" >>"$STAMP_FILE"
`;

/** Outside the repository and outside /tmp (a sandboxed agent sees a private /tmp): the fake and ralphy live here. */
const cacheDir = () => join(homedir(), ".cache", "ralph-bench");

function fakeClaudeDir(): string {
  const bin = join(cacheDir(), "bin");
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, "claude"), FAKE_CLAUDE);
  chmodSync(join(bin, "claude"), 0o755);
  return bin;
}

/** ralphy-cli 4.7.2 from the npm registry into the cache folder, once; null when it cannot be had. */
function ralphyBin(): string | null {
  const dir = join(cacheDir(), "ralphy");
  const bin = join(dir, "node_modules", ".bin", "ralphy");
  if (existsSync(bin)) return bin;
  mkdirSync(dir, { recursive: true });
  const r = spawnSync(
    "npm",
    ["install", "--no-audit", "--no-fund", "--loglevel=error", "--prefix", dir, "ralphy-cli@4.7.2"],
    {
      stdio: ["ignore", "ignore", "inherit"],
      timeout: 300_000,
    },
  );
  return r.status === 0 && existsSync(bin) ? bin : null;
}

const inheritedPath = () => inheritedEnv(["PATH"]).PATH ?? "/usr/local/bin:/usr/bin:/bin";

const gapsOf = (file: string) => {
  const calls = existsSync(file) ? readStamps(file) : [];
  return calls.slice(1).map((c, i) => c.start - calls[i]!.end);
};

type Variant = "defaults" | "check" | "sandbox off" | "cold sandbox";

async function startServer(root: string, port: number, bin: string, env: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), "ralph-bench-defaults-"));
  const server = spawn(
    process.execPath,
    [join(root, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"],
    {
      cwd: root,
      stdio: "ignore",
      env: {
        // eslint-disable-next-line no-restricted-syntax -- a child server inherits PATH and the like, as in playwright.config.ts
        ...process.env,
        PATH: `${bin}:${inheritedPath()}`,
        NODE_ENV: "production",
        NEXT_TELEMETRY_DISABLED: "1",
        DATABASE_URL: `file:${join(dataDir, "bench.db")}`,
        RALPH_DATA_DIR: dataDir,
        RALPH_WORKSPACE_ROOTS: tmpdir(),
        RALPH_ADMIN_EMAIL: ADMIN.email,
        RALPH_ADMIN_PASSWORD: ADMIN.password,
        ...env,
      },
    },
  );
  const exited = new Promise((r) => server.once("exit", r));
  // A loaded machine's first calls (a cold server compiling its routes) can pass Playwright's 30 s default.
  const api = await request.newContext({ timeout: 180_000 });
  const base = `http://127.0.0.1:${port}`;
  await until(async () => (await api.get(`${base}/api/health`)).ok(), 120_000, "the app to start");
  await call(api, base, "auth.signIn", ADMIN);
  return {
    /** One loop of `n` calls; the gaps between its agent calls. */
    async loop(n: number, withCheck: boolean): Promise<number[]> {
      const workspace = mkdtempSync(join(tmpdir(), "ralph-bench-ws-"));
      const stamps = join(workspace, ".stamps");
      const loop = await call(api, base, "loops.create", {
        goal: "Bench: answer at once",
        workspace,
        agent: { kind: "command", preset: "claude-code", env: { STAMP_FILE: stamps }, timeoutSeconds: 60 },
        scorers: withCheck ? [{ kind: "command-check", name: "check", argv: ["/bin/true"], runner: "none" }] : [],
        loop: {
          stop: { maxIterations: n, noProgressIterations: 0, maxConsecutiveFailures: 0 },
          completion: { allowNoEvidence: true },
        },
      });
      const id = String(loop.id);
      await until(
        async () => ((await call(api, base, "loops.byId", { id }, true)).loop as { isTerminal: boolean }).isTerminal,
        30 * 60_000,
        "the loop to finish",
      );
      const gaps = gapsOf(stamps);
      rmSync(workspace, { recursive: true, force: true });
      return gaps;
    },
    async stop() {
      await api.dispose();
      server.kill("SIGTERM");
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function ralphyLoop(bin: string, ralphy: string, n: number): Promise<number[]> {
  const dir = mkdtempSync(join(tmpdir(), "ralph-bench-ralphy-"));
  const stamps = join(dir, ".stamps");
  const git = (...args: string[]) =>
    spawnSync("git", ["-c", "user.name=bench", "-c", "user.email=bench@localhost", ...args], { cwd: dir });
  git("init", "-q", "-b", "main");
  const tasks = Array.from({ length: n }, (_, i) => `- [ ] task ${i + 1}`).join("\n");
  writeFileSync(join(dir, "PRD.md"), `# Tasks\n\n${tasks}\n`);
  writeFileSync(join(dir, ".gitignore"), ".stamps\n.ralphy/\n");
  git("add", "-A");
  git("commit", "-q", "-m", "tasks");
  await new Promise<void>((resolve) => {
    const child = spawn(ralphy, ["--prd", "PRD.md", "--fast", "--no-commit", "--max-iterations", String(n)], {
      cwd: dir,
      stdio: "ignore",
      // eslint-disable-next-line no-restricted-syntax -- ralphy finds `claude` on PATH, as a user's shell would
      env: { ...process.env, PATH: `${bin}:${inheritedPath()}`, STAMP_FILE: stamps },
    });
    child.once("exit", () => resolve());
  });
  const gaps = gapsOf(stamps);
  rmSync(dir, { recursive: true, force: true });
  return gaps;
}

export interface DefaultsGap {
  /** Median gap (ms) per configuration, with its count. */
  gaps: Record<string, { p50: number; p95: number; n: number }>;
  ralphy: boolean;
}

/** Null when the app is not built. `iterations` per configuration, split over `rounds` interleaved rounds. */
export async function measureDefaultsGap(
  root: string,
  opts: { iterations?: number; rounds?: number; port?: number } = {},
): Promise<DefaultsGap | null> {
  if (!existsSync(join(root, ".next", "BUILD_ID"))) return null;
  const rounds = opts.rounds ?? 2;
  const per = Math.ceil((opts.iterations ?? 50) / rounds) + 1;
  const port = opts.port ?? 3293;
  const bin = fakeClaudeDir();
  const ralphy = ralphyBin();
  const servers = {
    defaults: await startServer(root, port, bin, {}),
    "sandbox off": await startServer(root, port + 1, bin, { RALPH_AGENT_SANDBOX: "off" }),
    "cold sandbox": await startServer(root, port + 2, bin, { RALPH_SANDBOX_WARM: "off" }),
  };
  const samples: Record<string, number[]> = {};
  const add = (k: string, g: number[]) => (samples[k] ??= []).push(...g);
  try {
    for (let r = 0; r < rounds; r++) {
      const order: Variant[] = ["defaults", "check", "sandbox off", "cold sandbox"];
      for (const v of r % 2 ? order.reverse() : order) {
        const server = servers[v === "check" ? "defaults" : v];
        add(v === "check" ? "defaults + command check" : v, await server.loop(per, v === "check"));
      }
      if (ralphy) add("ralphy-cli 4.7.2", await ralphyLoop(bin, ralphy, per));
    }
  } finally {
    for (const s of Object.values(servers)) await s.stop();
  }
  const gaps: DefaultsGap["gaps"] = {};
  for (const [k, v] of Object.entries(samples))
    gaps[k] = { p50: percentile(v, 50), p95: percentile(v, 95), n: v.length };
  return { gaps, ralphy: ralphy !== null };
}

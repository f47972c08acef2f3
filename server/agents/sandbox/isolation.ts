/**
 * What the server decides about isolating agent processes, from its own
 * configuration: whether the sandbox is on, what agents must never see, and
 * which private hosts an admin opened. Loop configs can only narrow this
 * (an admin may turn the sandbox off for one loop).
 */
import { existsSync, mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { getEnv } from "../../env";

export interface IsolationSettings {
  /** RALPH_AGENT_SANDBOX: "off" runs every agent process without the sandbox. */
  mode: "on" | "off";
  /** Never visible inside the sandbox: the data folder, the app folder, credential stores. */
  hidden: string[];
  /** Each loop's own HOME lives under here (inside the hidden data folder). */
  homeRoot: string;
  /** RALPH_AGENT_ALLOW_HOSTS: private or loopback hosts agents may reach. */
  allowHosts: string[];
  /** RALPH_SANDBOX_WARM when not given: reuse a warm sandbox per policy (sandbox/warm-pool.ts). */
  warm?: "on" | "off";
}

/** Where the server's own user keeps credentials (and logs the sandbox would let agents write); shown to no agent. */
const HOME_CREDENTIALS = [
  ".npm",
  ".ssh",
  ".aws",
  ".azure",
  ".config/gcloud",
  ".config/gh",
  ".kube",
  ".docker",
  ".gnupg",
  ".npmrc",
  ".yarnrc",
  ".pypirc",
  ".netrc",
  ".git-credentials",
  ".pgpass",
  ".claude",
  ".claude.json",
  ".codex",
  ".bash_history",
];
const SYSTEM_SECRETS = ["/etc/shadow", "/etc/gshadow", "/etc/ssh"];

export function hiddenPaths(dataDir: string, appDir: string, home = homedir()): string[] {
  const candidates = [
    resolve(/*turbopackIgnore: true*/ dataDir),
    resolve(/*turbopackIgnore: true*/ appDir),
    ...HOME_CREDENTIALS.map((p) => join(/*turbopackIgnore: true*/ home, p)),
    ...SYSTEM_SECRETS,
  ];
  return [...new Set(candidates)].filter((p) => existsSync(p));
}

let cached: IsolationSettings | undefined;

/** The running server's settings (process.cwd() is the app folder, as for migrations and health). */
export function serverIsolation(): IsolationSettings {
  if (cached) return cached;
  const env = getEnv();
  cached = {
    mode: env.RALPH_AGENT_SANDBOX,
    hidden: hiddenPaths(env.RALPH_DATA_DIR, process.cwd()),
    homeRoot: resolve(env.RALPH_DATA_DIR, "agent-homes"),
    allowHosts: env.RALPH_AGENT_ALLOW_HOSTS,
  };
  return cached;
}

/** A loop's private HOME: persists across its iterations (tool caches, CLI settings), seen by no other loop. */
export function agentHome(settings: IsolationSettings, loopId: string): string {
  const dir = join(settings.homeRoot, loopId.replace(/[^A-Za-z0-9_-]/g, "_"));
  mkdirSync(dir, { recursive: true });
  return dir;
}

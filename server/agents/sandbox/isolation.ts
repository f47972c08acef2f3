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
import { physicalPath, workspaceOverlap } from "./workspace-guard";
import { appDir } from "../../app-dir";

export interface IsolationSettings {
  /** RALPH_AGENT_SANDBOX: "off" runs every agent process without the sandbox. */
  mode: "on" | "off";
  /** Never visible inside the sandbox: the data folder, the app folder, credential stores. */
  hidden: string[];
  /** Each loop's own HOME lives under here (RALPH_AGENT_HOMES_DIR: outside the data folder, itself hidden). */
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

/**
 * Where loops' HOMEs live: RALPH_AGENT_HOMES_DIR, or a folder beside the data
 * folder (`<data>-agent-homes`). Never inside it: an agent sees its HOME's
 * path, and the data folder's path is none of its business.
 */
export function agentHomesRoot(dataDir: string, configured: string | undefined): string {
  const data = physicalPath(dataDir);
  const root = configured ? resolve(configured) : `${data}-agent-homes`;
  const problem = workspaceOverlap(root, [{ what: "data folder", path: data }]);
  if (problem) throw new Error(`RALPH_AGENT_HOMES_DIR (${root}): ${problem}`);
  mkdirSync(root, { recursive: true, mode: 0o700 });
  return physicalPath(root);
}

/** The running server's settings (appDir() is the app folder: see server/app-dir.ts). */
export function serverIsolation(): IsolationSettings {
  if (cached) return cached;
  const env = getEnv();
  const homeRoot = agentHomesRoot(env.RALPH_DATA_DIR, env.RALPH_AGENT_HOMES_DIR);
  // Other loops' HOMEs and the workspace roots are hidden too: each agent gets its own HOME and
  // workspace back (read-write), and no other loop's. A folder outside the roots is shared on purpose.
  const roots = env.RALPH_WORKSPACE_ROOTS.map((r) => physicalPath(r)).filter((p) => existsSync(p));
  cached = {
    mode: env.RALPH_AGENT_SANDBOX,
    hidden: [...new Set([...hiddenPaths(env.RALPH_DATA_DIR, appDir()), homeRoot, ...roots])],
    homeRoot,
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

/**
 * The operating-system sandbox for agent processes: Anthropic's sandbox
 * runtime (bubblewrap on Linux, sandbox-exec on macOS). One instance per
 * server process: its network proxy starts once, and every sandboxed command
 * gets its own filesystem view and its own network allowlist.
 *
 * Inside: the workspace and the agent's HOME read-write, a private empty
 * /tmp, everything else read-only; the hidden paths (data folder, app
 * folder, credential stores) are not there at all. The network namespace is
 * empty: the only way out is the proxy, which lets through the hosts of
 * this command's allowlist plus the admin's, and never an allowed name that
 * resolves to loopback, link-local or private space.
 */
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { arch } from "node:os";
import { dirname, join } from "node:path";
import type { SandboxRuntimeConfig } from "@anthropic-ai/sandbox-runtime";
import { recordOwnBridges, sweepOrphanBridges } from "./bridge-sweep";
import { forwardScript, type LoopbackForward } from "./loopback-hosts";
import { appDir } from "../../app-dir";

type Manager = (typeof import("@anthropic-ai/sandbox-runtime"))["SandboxManager"];

/**
 * Loaded at run time from node_modules, never bundled: the runtime finds its
 * helpers next to its own files, and Next cannot keep an ES-only package
 * external.
 */
const loadRuntime = (): Promise<typeof import("@anthropic-ai/sandbox-runtime")> =>
  import(/* webpackIgnore: true */ /* turbopackIgnore: true */ "@anthropic-ai/sandbox-runtime");

/** Private and shared address space: an allowed name must not lead there (loopback and link-local are refused already). */
const PRIVATE_RANGES = ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "198.18.0.0/15", "fc00::/7"];

export interface SandboxPlan {
  /** Read-write: the workspace and the agent's HOME. */
  writable: string[];
  /** Invisible inside (each is an empty directory there). */
  hidden: string[];
  /** Read-only even where a hidden folder covers it (the loop's own git directory under a workspace root). */
  readable?: string[];
  /** Hosts this command may reach, besides the admin's list. */
  hosts: string[];
  /** Loopback ports of this machine the command reaches at its own 127.0.0.1 (loopback-hosts.ts). */
  forwards?: LoopbackForward[];
}

export interface SandboxAvailability {
  available: boolean;
  backend: "bubblewrap" | "sandbox-exec" | null;
  /** Why it is unavailable (missing packages, a kernel that refuses namespaces). */
  detail: string | null;
}

const shellQuote = (word: string) =>
  /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;

/** The seccomp helper lives in the app folder, which sandboxed commands cannot see: it is shown to them alone. */
export function seccompHelperPath(): string | null {
  const folder = arch() === "arm64" ? "arm64" : arch() === "x64" ? "x64" : null;
  if (!folder) return null;
  const candidates: string[] = [];
  try {
    const entry = createRequire(import.meta.url).resolve("@anthropic-ai/sandbox-runtime");
    candidates.push(join(dirname(entry), "..", "vendor", "seccomp", folder, "apply-seccomp"));
  } catch {
    // bundled without a resolvable require: fall back to the working directory
  }
  candidates.push(
    join(appDir(), "node_modules", "@anthropic-ai", "sandbox-runtime", "vendor", "seccomp", folder, "apply-seccomp"),
  );
  return candidates.find((p) => existsSync(p)) ?? null;
}

let manager: Promise<Manager> | null = null;
let availability: Promise<SandboxAvailability> | null = null;
let checkedAt = 0;
const RECHECK_MS = 60_000;

function backendName(): SandboxAvailability["backend"] {
  return process.platform === "linux" ? "bubblewrap" : process.platform === "darwin" ? "sandbox-exec" : null;
}

function runtimeConfig(allowHosts: readonly string[]): SandboxRuntimeConfig {
  const helper = seccompHelperPath();
  return {
    network: {
      // Admin-listed hosts (RALPH_AGENT_ALLOW_HOSTS) are reachable from every sandbox, private ones included.
      allowedDomains: [...allowHosts],
      deniedDomains: [],
      deniedResolvedAddresses: PRIVATE_RANGES,
    },
    filesystem: { denyRead: [], allowRead: [], allowWrite: [], denyWrite: [] },
    // The runtime scans the server's working directory (the app folder, hidden from agents anyway)
    // for files to write-protect on every wrap: keep that scan shallow.
    mandatoryDenySearchDepth: 1,
    ...(helper ? { seccomp: { applyPath: helper } } : {}),
  };
}

let configuredHosts = "";

async function start(allowHosts: readonly string[]): Promise<Manager> {
  const { SandboxManager } = await loadRuntime();
  sweepOrphanBridges();
  await SandboxManager.initialize(runtimeConfig(allowHosts));
  // Its host-side socat bridges would outlive a SIGKILL of this process: recorded for the next start to sweep.
  recordOwnBridges(
    [SandboxManager.getLinuxHttpSocketPath(), SandboxManager.getLinuxSocksSocketPath()].filter(
      (p): p is string => typeof p === "string" && p.length > 0,
    ),
  );
  configuredHosts = allowHosts.join(",");
  return SandboxManager;
}

async function getManager(allowHosts: readonly string[]): Promise<Manager> {
  manager ??= start(allowHosts).catch((error: unknown) => {
    manager = null;
    throw error;
  });
  const sandbox = await manager;
  // The admin's list is fixed for a server; tests (and a reconfigured process) change it in place.
  if (allowHosts.join(",") !== configuredHosts) {
    sandbox.updateConfig(runtimeConfig(allowHosts));
    configuredHosts = allowHosts.join(",");
  }
  return sandbox;
}

/** Wraps argv for the sandbox. `release` must be called once the process has exited. */
export async function sandboxArgv(
  argv: readonly string[],
  plan: SandboxPlan,
  allowHosts: readonly string[],
): Promise<{ argv: string[]; release(): void }> {
  const sandbox = await getManager(allowHosts);
  await sandbox.waitForNetworkInitialization();
  const helper = seccompHelperPath();
  // The proxy's sockets live in the host's /tmp, which the command sees as a private empty one: bind them back.
  const sockets = [sandbox.getLinuxHttpSocketPath(), sandbox.getLinuxSocksSocketPath()].filter(
    (p): p is string => typeof p === "string" && p.length > 0,
  );
  // 128 random bits: the proxy ties a connection to this command's allowlist by this id.
  const commandId = randomBytes(16).toString("base64url");
  // The runtime points TMPDIR at a folder that does not exist inside; /tmp is the private one.
  const command = `export TMPDIR=/tmp; ${forwardScript(plan.forwards ?? [])}exec ${argv.map(shellQuote).join(" ")}`;
  const wrapped = await sandbox.wrapWithSandboxArgv(
    command,
    "bash",
    {
      filesystem: {
        denyRead: [...plan.hidden, "/tmp"],
        allowRead: [...plan.writable, ...(plan.readable ?? []), ...(helper ? [helper] : [])],
        allowWrite: [...plan.writable, ...new Set(sockets)],
        denyWrite: [],
      },
      network: { allowedDomains: [...allowHosts], deniedDomains: [] },
    },
    undefined,
    plan.writable[0],
    { commandId },
  );
  if (plan.hosts.length > 0) sandbox.registerCommandNetworkLists(commandId, { allowedDomains: plan.hosts });
  let released = false;
  return {
    // `exec`: bubblewrap replaces the shell, so it is the process our watcher guards and --die-with-parent ties to us.
    argv: [wrapped.argv[0]!, "-c", `exec ${wrapped.argv[2]!}`],
    release() {
      if (released) return;
      released = true;
      sandbox.unregisterCommandNetworkLists(commandId);
      sandbox.cleanupAfterCommand();
    },
  };
}

async function probe(allowHosts: readonly string[]): Promise<SandboxAvailability> {
  const backend = backendName();
  if (!backend) return { available: false, backend, detail: `not supported on ${process.platform}` };
  try {
    const { SandboxManager } = await loadRuntime();
    if (!SandboxManager.isSupportedPlatform()) {
      return { available: false, backend, detail: `not supported on ${process.platform}` };
    }
    const deps = SandboxManager.checkDependencies();
    if (deps.errors.length > 0) return { available: false, backend, detail: deps.errors.join("; ") };
    // Only a real run proves the kernel allows the namespaces bubblewrap needs.
    const { spawnSync } = await import("node:child_process");
    const { mkdtempSync, rmSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const dir = mkdtempSync(join(tmpdir(), "ralph-sandbox-probe-"));
    try {
      const run = await sandboxArgv(
        ["/bin/sh", "-c", "echo ok"],
        { writable: [dir], hidden: [], hosts: [] },
        allowHosts,
      );
      try {
        const result = spawnSync(run.argv[0]!, run.argv.slice(1), {
          cwd: dir,
          env: { PATH: "/usr/local/bin:/usr/bin:/bin" } as unknown as NodeJS.ProcessEnv,
          encoding: "utf8",
          timeout: 20_000,
        });
        if (result.status !== 0 || result.stdout.trim() !== "ok") {
          const said = (result.stderr || result.error?.message || "").trim().split("\n").slice(-2).join(" ");
          return { available: false, backend, detail: `a test command failed in the sandbox: ${said}` };
        }
      } finally {
        run.release();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    return { available: true, backend, detail: null };
  } catch (error) {
    return { available: false, backend, detail: error instanceof Error ? error.message : String(error) };
  }
}

/** Whether sandboxing works here, checked once by running a command (and again a minute after a failure). */
export function sandboxAvailability(allowHosts: readonly string[] = []): Promise<SandboxAvailability> {
  const now = Date.now();
  if (availability && now - checkedAt > RECHECK_MS) {
    // A failed check is tried again later: the packages may have been installed meanwhile.
    const previous = availability;
    availability = previous.then((a) => (a.available ? a : probe(allowHosts)));
    checkedAt = now;
  }
  if (!availability) {
    availability = probe(allowHosts);
    checkedAt = now;
  }
  return availability;
}

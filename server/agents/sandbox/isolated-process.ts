/**
 * Everything a command-running adapter (agent, check, verifier) needs before
 * it spawns: the environment (allowlisted variables, resolved secrets), and,
 * unless the sandbox is off, the argv wrapped for the sandbox with the
 * process's own HOME and network allowlist.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { AgentError } from "../agent-error";
import type { CommandPreset, ProcessFields } from "../command.schema";
import type { AgentDeps } from "../deps";
import { buildChildEnv } from "../process-env";
import { missingProgram, runProcess, type ProcessOutcome, type ProcessSpec } from "../process-group";
import { agentHome, serverIsolation } from "./isolation";
import { sandboxHosts } from "./loopback-hosts";
import { networkHosts } from "./network-presets";
import { getEnv } from "../../env";
import { sandboxArgv, sandboxAvailability, type SandboxPlan } from "./sandbox-runtime";
import { toolchainEnv } from "./toolchain-homes";
import { warmLaunch } from "./warm-pool";

export interface PreparedProcess {
  argv: string[];
  env: Record<string, string>;
  secretValues: string[];
  sandboxed: boolean;
  /** Call once the process has exited. */
  release(): void;
}

export interface ProcessRequest {
  config: Pick<ProcessFields, "envAllow" | "env" | "secrets" | "sandbox" | "network">;
  deps: AgentDeps;
  loopId: string;
  workspace: string;
  cwd: string;
  argv: string[];
  extraEnv: Record<string, string>;
  /** Whose model API hosts the process may reach (a command agent's preset); null for checks and verifiers. */
  preset: CommandPreset | null;
  /** Loopback `host:port`s of this run's own helpers (the permission server), forwarded like an admin's entries. */
  extraHosts?: readonly string[];
}

/**
 * A ChatGPT-plan login for Codex, stored as a secret passed as CODEX_AUTH_JSON (the contents of
 * ~/.codex/auth.json after `codex login`), goes where Codex reads it: the loop's own HOME. Written
 * again only when the stored secret changes, since Codex refreshes its tokens in that file.
 */
export function placeCodexLogin(home: string, env: Record<string, string>) {
  const auth = env.CODEX_AUTH_JSON;
  if (auth === undefined) return;
  delete env.CODEX_AUTH_JSON;
  const dir = join(/*turbopackIgnore: true*/ home, ".codex");
  const stamp = join(/*turbopackIgnore: true*/ dir, ".ralph-auth-source");
  const digest = createHash("sha256").update(auth).digest("hex");
  if (
    existsSync(join(/*turbopackIgnore: true*/ dir, "auth.json")) &&
    existsSync(stamp) &&
    readFileSync(stamp, "utf8") === digest
  )
    return;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(join(/*turbopackIgnore: true*/ dir, "auth.json"), auth, { mode: 0o600 });
  writeFileSync(stamp, digest, { mode: 0o600 });
}

export async function prepareProcess(req: ProcessRequest): Promise<PreparedProcess> {
  const isolation = req.deps.isolation ?? serverIsolation();
  const sandboxed = isolation.mode === "on" && req.config.sandbox === "on";
  // Every host the process could send a secret to: a stored secret's host scope is checked against these.
  const hosts = sandboxed ? [...networkHosts(req.config.network, req.preset), ...isolation.allowHosts] : null;
  const pending = buildChildEnv(req.config, req.deps.secrets, req.extraEnv, { kind: "command", hosts });
  const { env, secretValues } = pending instanceof Promise ? await pending : pending;
  req.deps.redactor?.add(secretValues);
  if (!sandboxed) return { argv: req.argv, env, secretValues, sandboxed, release: () => undefined };

  // As the sandbox applies them (loopback-hosts.ts): the admin's entries it cannot use are skipped (they
  // may serve the LLM and webhook adapters), the loop's own are a configuration error, as at create.
  const admin = await sandboxHosts([...isolation.allowHosts, ...(req.extraHosts ?? [])], "admin");
  const own = await sandboxHosts(networkHosts(req.config.network, req.preset), "loop");
  if (own.problems.length > 0) {
    throw new AgentError("config", `network.hosts: ${own.problems.join("; ")}`, { retryable: false });
  }
  const available = await sandboxAvailability(admin.allowed);
  if (!available.available) {
    throw new AgentError(
      "config",
      `The sandbox is not available on this server (${available.detail ?? "unknown reason"}). ` +
        "Install bubblewrap, socat and ripgrep, or an admin can turn the sandbox off.",
      { retryable: false },
    );
  }
  // Checked on the host: what is missing here is missing inside too, and a
  // clear spawn failure beats a shell's exit 127.
  const missing = missingProgram(req.argv[0], req.cwd, env.PATH);
  if (missing)
    throw new AgentError("spawn_failed", `Could not start "${req.argv[0]}": ${missing}`, { retryable: false });

  const home = agentHome(isolation, req.loopId);
  env.HOME = home;
  // The fresh HOME hides toolchains installed in the server user's (rustup, pyenv...): name their homes.
  Object.assign(env, toolchainEnv(env));
  placeCodexLogin(home, env);
  const plan: SandboxPlan = {
    writable: [req.workspace, home],
    hidden: isolation.hidden,
    readable: await ownGitDirs(req),
    hosts: own.allowed.filter((h) => !admin.allowed.includes(h)),
    forwards: [...admin.forwards, ...own.forwards.filter((f) => !admin.forwards.some((a) => a.port === f.port))],
  };
  // The same sandbox, started once for this policy and entered by each command (warm-sandbox.ts).
  // A run with its own helper port gets its own sandbox: a warm one is shared by runs of one policy.
  if ((isolation.warm ?? getEnv().RALPH_SANDBOX_WARM) === "on" && !req.extraHosts?.length) {
    const warm = await warmLaunch(req.argv, req.cwd, env, plan, admin.allowed);
    if (warm) return { argv: warm.argv, env: warm.env, secretValues, sandboxed, release: warm.release };
  }
  const wrapped = await sandboxArgv(req.argv, plan, admin.allowed);
  return { argv: wrapped.argv, env, secretValues, sandboxed, release: wrapped.release };
}

/**
 * A worktree's git directory lives in its source repository, which may sit
 * under a hidden workspace root: the loop's agent may read it (git log, git
 * status), as before the roots were hidden. Taken from what the server
 * prepared, never from the `.git` file the agent could rewrite.
 */
async function ownGitDirs(req: ProcessRequest): Promise<string[]> {
  if (!req.deps.git) return [];
  try {
    const ws = await req.deps.git.prepared(req.loopId);
    if (ws.mode !== "worktree" || !ws.gitLink) return [];
    // <common>/worktrees/<name>: the whole common directory (objects, refs) is what git reads.
    return [dirname(dirname(ws.gitLink))];
  } catch {
    return [];
  }
}

/** A request for a process that runs once to its end (a check, a verifier, the setup command). */
export interface OneShotRequest extends Omit<ProcessRequest, "preset"> {
  config: ProcessRequest["config"] & Pick<ProcessFields, "timeoutSeconds" | "killGraceMs">;
}

/**
 * Prepares a one-shot process (sandboxed like the agent: it runs code the agent may have written),
 * runs it to its end and releases the sandbox. Returns the secrets it was given, for scrubbing what it printed.
 */
export async function runOneShot(
  req: OneShotRequest,
  run: Pick<ProcessSpec, "stdin" | "signal" | "onLine" | "maxOutputBytes">,
): Promise<{ outcome: ProcessOutcome; secretValues: string[] }> {
  const prepared = await prepareProcess({ ...req, preset: null });
  const outcome = await runProcess({
    argv: prepared.argv,
    cwd: req.cwd,
    env: prepared.env,
    timeoutMs: req.config.timeoutSeconds * 1000,
    killGraceMs: req.config.killGraceMs,
    ...run,
  }).finally(prepared.release);
  return { outcome, secretValues: prepared.secretValues };
}

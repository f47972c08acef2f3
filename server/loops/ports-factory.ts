// Builds the engine ports for a loop from its stored definition.
import { mkdirSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import { createPorts } from "../agents/registry";
import { chainSecretResolvers, envSecretResolver } from "../agents/secret-resolver";
import { loopCreatorRole } from "../db/agent-runs.repo";
import { getDatabase } from "../db/database";
import { getSecretKey } from "../secrets/secret-key";
import { storeSecretResolver } from "../secrets/store-secret-resolver";
import { getEnv } from "../env";
import { loopGitWorkspace } from "../agents/git/loop-workspace";
import {
  guardedWorkspace,
  physicalPath,
  WorkspaceGuardError,
  type GuardedFolder,
} from "../agents/sandbox/workspace-guard";
import { loopEvidence } from "../agents/evidence/loop-evidence";
import { evidenceSchema } from "./loop-definition";
import type { AgentDeps, AgentTracker } from "../agents/deps";
import type { PermissionGate } from "../agents/permission-server";
import { prepareLoopEnvironment } from "./loop-environment";
import { takeLoopBaselines } from "./loop-baseline";
import { appDir } from "../app-dir";

/** The server's own folders no workspace may reach, by any path: the same check as at create (agent-policy.ts). */
export const serverFolders = (dataDir: string): GuardedFolder[] => [
  { what: "data folder", path: dataDir },
  { what: "app folder", path: appDir() },
];

/**
 * The physical folder of a loop's workspace, checked again on every use (each
 * slice start, before any git command): a symlink swapped in after the loop
 * was created is refused here, before `mkdir` or git could follow it.
 */
export function workspaceFor(loopId: string, configured: unknown, dataDir: string): string {
  if (typeof configured === "string" && configured !== "") {
    guardedWorkspace(configured, serverFolders(dataDir));
    mkdirSync(configured, { recursive: true });
    return guardedWorkspace(configured, serverFolders(dataDir));
  }
  // The server's own folder for the loop, inside the data folder on purpose: it must be exactly that folder.
  const expected = join(physicalPath(dataDir), "workspaces", loopId);
  mkdirSync(expected, { recursive: true });
  const real = physicalPath(expected);
  if (real !== expected)
    throw new WorkspaceGuardError(`workspace ${expected}: leads to ${real}, not the loop's own folder`);
  return real;
}

// `{ secret }` refs from the encrypted store (decrypted only here, when an
// executor asks, and only within the secret's scope for the loop's creator),
// `{ env }` refs from the server environment (RALPH_AGENT_ENV_ALLOW only).
export const loopSecretResolver = (loopId: string) =>
  chainSecretResolvers(
    storeSecretResolver(getDatabase, getSecretKey, () => loopCreatorRole(getDatabase().prisma, loopId)),
    envSecretResolver,
  );

type StoredConfig = {
  agent?: unknown;
  fallbackAgent?: unknown;
  scorers?: unknown[];
  verifier?: unknown;
  reflector?: unknown;
  workspace?: unknown;
  isolation?: unknown;
  evidence?: unknown;
  forkStart?: unknown;
  setup?: unknown;
};

/** Where a fork's worktree starts: the source loop's repository at the forked iteration's commit. */
export interface ForkStart {
  source: string;
  sha: string;
}

const forkStartOf = (value: unknown): ForkStart | null => {
  const v = value as Partial<ForkStart> | null | undefined;
  return typeof v?.source === "string" && typeof v.sha === "string" ? { source: v.source, sha: v.sha } : null;
};

/** The folder a loop's workspace is made from: its configured workspace, a fork's source, or a fresh folder. */
export function workspaceSourceOf(loopId: string, config: unknown): string {
  const c = (config ?? {}) as StoredConfig;
  const fork = forkStartOf(c.forkStart);
  const dataDir = getEnv().RALPH_DATA_DIR;
  return fork ? forkSourceFor(fork.source, dataDir) : workspaceFor(loopId, c.workspace, dataDir);
}

/** A fork's source: another loop's configured workspace (checked like one) or its own folder under the data folder. */
function forkSourceFor(source: string, dataDir: string): string {
  const real = physicalPath(source);
  const managed = join(physicalPath(dataDir), "workspaces");
  if (real === source && real.startsWith(managed + sep) && !real.slice(managed.length + 1).includes(sep)) return real;
  return guardedWorkspace(source, serverFolders(dataDir));
}

/** The git side of a stored loop's workspace, for the adapters and for the operator's workspace actions. */
export function gitWorkspaceFor(config: unknown) {
  const c = (config ?? {}) as StoredConfig;
  const env = getEnv();
  const fork = forkStartOf(c.forkStart);
  return loopGitWorkspace({
    source: (id) => workspaceSourceOf(id, config),
    // A fork always gets its own worktree: in place it would share the source's files.
    isolation: c.isolation === "in-place" && !fork ? "in-place" : "worktree",
    worktreesDir: resolve(env.RALPH_DATA_DIR, "worktrees"),
    // Loops stored before protected paths existed get the defaults too.
    evidence: evidenceSchema.parse(c.evidence ?? {}),
    ...(fork ? { startAt: fork.sha } : {}),
  });
}

/** The command checks of a stored definition, as protection and grading see them. */
function commandChecksOf(config: StoredConfig) {
  const v = config.verifier as { kind?: unknown; argv?: unknown; cwd?: unknown } | undefined;
  const verifier =
    v?.kind === "command" && Array.isArray(v.argv) ? [{ ...v, kind: "command-check", name: "verifier" }] : [];
  return [...(config.scorers ?? []), ...verifier].flatMap((s) => {
    const c = s as { kind?: unknown; name?: unknown; argv?: unknown; cwd?: unknown };
    if (c.kind !== "command-check" || !Array.isArray(c.argv)) return [];
    return [
      {
        name: typeof c.name === "string" ? c.name : "tests",
        argv: c.argv.filter((a): a is string => typeof a === "string"),
        ...(typeof c.cwd === "string" && c.cwd !== "" ? { cwd: c.cwd } : {}),
      },
    ];
  });
}

/** The loop's graded evidence: protection derived from its checks, baselines, clean grading trees. */
export function loopEvidenceFor(config: unknown, git: ReturnType<typeof gitWorkspaceFor>) {
  const c = (config ?? {}) as StoredConfig;
  const settings = evidenceSchema.parse(c.evidence ?? {});
  const fork = c.forkStart as { baseLoop?: unknown } | undefined;
  return loopEvidence({
    git,
    ...(typeof fork?.baseLoop === "string" ? { baseLoop: fork.baseLoop } : {}),
    worktreesDir: resolve(getEnv().RALPH_DATA_DIR, "worktrees"),
    heldOutRoot: resolve(getEnv().RALPH_DATA_DIR, "held-out"),
    settings: {
      checks: commandChecksOf(c),
      operator: settings.protectedPaths,
      unprotected: settings.unprotected,
      derive: settings.deriveFromChecks,
    },
  });
}

/**
 * The secret values a loop's command agent could have been given, to scrub
 * from what is read back out of its workspace (the patch). A secret that
 * cannot be resolved for it was never handed to the agent either.
 */
export async function loopSecretValues(loopId: string, config: unknown): Promise<string[]> {
  const agent = ((config ?? {}) as StoredConfig).agent as
    { secrets?: { name: string; env?: string; secret?: string }[] } | undefined;
  const resolver = loopSecretResolver(loopId);
  const values = await Promise.all(
    (agent?.secrets ?? []).map((s) =>
      resolver
        .resolve(s.secret ? { secret: s.secret } : { env: s.env ?? s.name }, { kind: "command", hosts: null })
        .catch(() => undefined),
    ),
  );
  return values.filter((v): v is string => typeof v === "string" && v !== "");
}

/**
 * The engine ports for a stored loop: its agent, scorers, verifier and reflector, resolved from its definition.
 * Its worktree's environment (.worktreeinclude, setup command) is prepared first, once per loop, and its
 * graded checks' baselines are taken before iteration 1 (loop-baseline.ts).
 */
export async function createLoopPorts(loop: {
  id: string;
  config: unknown;
  tracker?: AgentTracker;
  permissions?: PermissionGate;
}) {
  const config = (loop.config ?? {}) as StoredConfig;
  const env = getEnv();
  const git = gitWorkspaceFor(loop.config);
  const deps: AgentDeps = {
    workspaceDir: (id) => git.dir(id),
    git,
    evidence: loopEvidenceFor(loop.config, git),
    secrets: loopSecretResolver(loop.id),
    allowHosts: env.RALPH_AGENT_ALLOW_HOSTS,
    tracker: loop.tracker,
    permissions: loop.permissions,
  };
  await prepareLoopEnvironment({
    loopId: loop.id,
    config: loop.config,
    // Nothing is made for a loop that needs no environment (a demo loop has no folder).
    source: () => workspaceSourceOf(loop.id, loop.config),
    givenSource:
      forkStartOf(config.forkStart)?.source ??
      (typeof config.workspace === "string" && config.workspace !== "" ? config.workspace : null),
    git,
    deps,
    stateDir: resolve(env.RALPH_DATA_DIR, "worktrees"),
    isolation: config.isolation === "in-place" && !forkStartOf(config.forkStart) ? "in-place" : "worktree",
  });
  const ports = createPorts(
    {
      agent: config.agent,
      fallbackAgent: config.fallbackAgent,
      scorers: config.scorers ?? [],
      verifier: config.verifier,
      reflector: config.reflector,
    },
    deps,
    loop.id,
  );
  // Before iteration 1 too: a check that cannot run on the base commit stops the loop with the reason.
  await takeLoopBaselines(config.scorers ?? [], deps, loop.id);
  return ports;
}

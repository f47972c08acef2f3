// Builds the engine ports for a loop from its stored definition.
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { createPorts } from "../agents/registry";
import { chainSecretResolvers, envSecretResolver } from "../agents/secret-resolver";
import { loopCreatorRole } from "../db/agent-runs.repo";
import { getDatabase } from "../db/database";
import { getSecretKey } from "../secrets/secret-key";
import { storeSecretResolver } from "../secrets/store-secret-resolver";
import { getEnv } from "../env";
import { loopGitWorkspace } from "../agents/git/loop-workspace";
import { evidenceSchema } from "./loop-definition";
import type { AgentDeps, AgentTracker } from "../agents/deps";
import { prepareLoopEnvironment } from "./loop-environment";

export function workspaceFor(loopId: string, configured: unknown, dataDir: string): string {
  const dir = typeof configured === "string" && configured !== "" ? configured : resolve(dataDir, "workspaces", loopId);
  mkdirSync(dir, { recursive: true });
  return dir;
}

// `{ secret }` refs from the encrypted store (decrypted only here, when an
// executor asks, and only within the secret's scope for the loop's creator),
// `{ env }` refs from the server environment (RALPH_AGENT_ENV_ALLOW only).
const secretsFor = (loopId: string) =>
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
  return fork ? fork.source : workspaceFor(loopId, c.workspace, getEnv().RALPH_DATA_DIR);
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

/**
 * The secret values a loop's command agent could have been given, to scrub
 * from what is read back out of its workspace (the patch). A secret that
 * cannot be resolved for it was never handed to the agent either.
 */
export async function loopSecretValues(loopId: string, config: unknown): Promise<string[]> {
  const agent = ((config ?? {}) as StoredConfig).agent as
    { secrets?: { name: string; env?: string; secret?: string }[] } | undefined;
  const resolver = secretsFor(loopId);
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
 * Its worktree's environment (.worktreeinclude, setup command) is prepared first, once per loop.
 */
export async function createLoopPorts(loop: { id: string; config: unknown; tracker?: AgentTracker }) {
  const config = (loop.config ?? {}) as StoredConfig;
  const env = getEnv();
  const git = gitWorkspaceFor(loop.config);
  const deps: AgentDeps = {
    workspaceDir: (id) => git.dir(id),
    git,
    secrets: secretsFor(loop.id),
    allowHosts: env.RALPH_AGENT_ALLOW_HOSTS,
    tracker: loop.tracker,
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
  return createPorts(
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
}

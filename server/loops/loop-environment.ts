// A stored loop's worktree environment (.worktreeinclude, submodules, setup command),
// prepared when its ports are built, before iteration 1: a failure there is
// a loop that cannot run (the runtime stops it with the reason), not a series
// of failing iterations. Loops with neither skip it without a git command.
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { AgentDeps } from "../agents/deps";
import type { LoopGitWorkspace } from "../agents/git/loop-workspace";
import { hasEnvironmentRecord, prepareEnvironment } from "../agents/git/workspace-environment";
import { WORKTREE_INCLUDE } from "../agents/git/worktree-include";
import { workspaceSetupSchema, type WorkspaceSetupConfig } from "../agents/workspace-setup.schema";

/** The loop's setup command, or null (none, or a stored value that no longer parses). */
export function setupOf(config: unknown): WorkspaceSetupConfig | null {
  const parsed = workspaceSetupSchema.safeParse((config as { setup?: unknown } | null)?.setup ?? {});
  return parsed.success && parsed.data.argv.length > 0 ? parsed.data : null;
}

/**
 * Whether the repository holding `dir` has a `.worktreeinclude` or submodules, which a new worktree
 * needs brought in (no git command: a walk up to `.git`).
 */
export function worktreeNeedsEnvironment(dir: string): boolean {
  for (let at = resolve(dir); ; at = dirname(at)) {
    if (existsSync(join(at, ".git"))) return [WORKTREE_INCLUDE, ".gitmodules"].some((f) => existsSync(join(at, f)));
    if (dirname(at) === at) return false;
  }
}

export async function prepareLoopEnvironment(opts: {
  loopId: string;
  config: unknown;
  /** The folder the workspace is made from (made on first call when it is the loop's fresh folder). */
  source: () => string;
  /** The operator's folder (or a fork's source), when there is one: only those can be repositories. */
  givenSource: string | null;
  git: LoopGitWorkspace;
  deps: AgentDeps;
  stateDir: string;
  isolation: "worktree" | "in-place";
}) {
  const setup = setupOf(opts.config);
  const includes =
    opts.isolation === "worktree" && opts.givenSource !== null && worktreeNeedsEnvironment(opts.givenSource);
  if (!setup && !includes) return null;
  if (hasEnvironmentRecord(opts.stateDir, opts.loopId)) return null;
  const ws = await opts.git.prepared(opts.loopId);
  return prepareEnvironment({
    loopId: opts.loopId,
    ws,
    source: opts.source(),
    setup,
    deps: opts.deps,
    stateDir: opts.stateDir,
  });
}

// Where "Test the check now" and the preflight's check run: a temporary
// worktree prepared exactly as a loop's (made from HEAD, .worktreeinclude
// copied in, the setup command run in the sandbox), so a check that passes
// in the form cannot fail in the loop for a reason of place. In place, and
// outside a repository, the loop runs in the folder itself, and so does the
// check (the setup is then not run: it would install into the user's folder
// from a preview button). The temporary worktree and its HOME are removed.
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import type { AgentDeps } from "../agents/deps";
import { git } from "../agents/git/git-cli";
import {
  environmentRecordPath,
  prepareEnvironment,
  setupLogPath,
  type EnvironmentRecord,
} from "../agents/git/workspace-environment";
import { setupOutputsPath } from "../agents/git/workspace-environment-record";
import { workspaceFolder } from "../agents/git/workspace-subfolder";
import { agentHome, serverIsolation } from "../agents/sandbox/isolation";
import type { WorkspaceSetupConfig } from "../agents/workspace-setup.schema";
import { getEnv } from "../env";

export interface CheckPlace {
  /** The folder the check runs in. */
  dir: string;
  /** The id its processes run under (their HOME is this id's). */
  runId: string;
  /** worktree: a temporary worktree like the loop's; checkout: the folder itself, as the loop would. */
  kind: "worktree" | "checkout";
  environment: EnvironmentRecord | null;
  /** Said to the operator: what was prepared, or why the setup was not run. */
  note: string | null;
}

const previewsDir = () => resolve(getEnv().RALPH_DATA_DIR, "worktrees", ".previews");

async function repoTop(dir: string): Promise<string | null> {
  const out = await git(dir, ["rev-parse", "--show-toplevel"], { allowFail: true });
  return out.trim() === "" ? null : out.trim();
}

/**
 * Runs `fn` in a place prepared as the loop's first iteration would find it,
 * then removes what was made. Throws a WorkspaceEnvironmentError when the
 * environment cannot be prepared (the loop would stop on the same error).
 */
export async function inLoopPlace<T>(
  opts: {
    workspace: string;
    isolation: "worktree" | "in-place";
    setup: WorkspaceSetupConfig | null;
    deps: Omit<AgentDeps, "workspaceDir">;
    signal?: AbortSignal;
  },
  fn: (place: CheckPlace) => Promise<T>,
): Promise<T> {
  const runId = `check-preview-${randomUUID()}`;
  const isolation = opts.deps.isolation ?? serverIsolation();
  const dropHome = () => rmSync(join(isolation.homeRoot, runId), { recursive: true, force: true });
  const top = await repoTop(opts.workspace);
  if (!top || opts.isolation === "in-place") {
    const note = opts.setup ? "The setup command runs when the loop starts; it was not run in your folder now." : null;
    try {
      return await fn({ dir: opts.workspace, runId, kind: "checkout", environment: null, note });
    } finally {
      dropHome();
    }
  }
  const stateDir = previewsDir();
  mkdirSync(stateDir, { recursive: true });
  const dir = join(stateDir, runId);
  const headSha = (await git(top, ["rev-parse", "HEAD"])).trim();
  // Detached: no branch for a preview, nothing left in the user's branch list.
  await git(top, ["worktree", "add", "--detach", "--quiet", dir, headSha]);
  try {
    agentHome(isolation, runId);
    const environment = await prepareEnvironment({
      loopId: runId,
      ws: { dir, branch: null, baselineSha: headSha, mode: "worktree" },
      source: opts.workspace,
      setup: opts.setup,
      deps: { ...opts.deps, workspaceDir: () => dir },
      stateDir,
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    const parts = [
      environment.included.length > 0 ? `copied ${environment.included.join(", ")} from .worktreeinclude` : null,
      environment.setup ? `ran "${environment.setup.argv.join(" ")}"` : null,
    ].filter(Boolean);
    const note = `Ran in a new worktree of HEAD, as the loop will${parts.length > 0 ? ` (${parts.join("; ")})` : ""}.`;
    // A package of a monorepo: the check runs in that folder of the worktree, as the loop's will.
    const folder = await workspaceFolder({ dir, branch: null, baselineSha: headSha, mode: "worktree" }, opts.workspace);
    return await fn({ dir: folder, runId, kind: "worktree", environment, note });
  } finally {
    await git(top, ["worktree", "remove", "--force", dir], { allowFail: true });
    if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
    await git(top, ["worktree", "prune"], { allowFail: true });
    rmSync(environmentRecordPath(stateDir, runId), { force: true });
    rmSync(setupLogPath(stateDir, runId), { force: true });
    rmSync(setupOutputsPath(stateDir, runId), { recursive: true, force: true });
    dropHome();
  }
}

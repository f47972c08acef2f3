/**
 * Keeps every loop workspace away from the server's own folders, by the
 * path the kernel will follow, not the path as typed. An agent can plant a
 * symlink in its own workspace (the target need not exist in its sandbox) and
 * an operator can then name `<root>/planted-link` as another loop's
 * workspace: a textual check passes, and the server would `git init` and
 * commit the data folder (secret key, job secret, database) into a branch
 * the next agent reads. So the check resolves every symlink and `..` with
 * the kernel's own realpath, on both sides, and is repeated before each use
 * of the folder (a link can be swapped in after the loop was created).
 */
import { realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, join, resolve, sep } from "node:path";
import { AgentError } from "../agent-error";

/** The path with every symlink and `..` resolved as the kernel resolves them; a missing tail is kept as written. */
export function physicalPath(path: string): string {
  const missing: string[] = [];
  let at = isAbsolute(path) ? path : resolve(path);
  // dirname() is textual and keeps `..` segments, so each ancestor is resolved physically by the kernel.
  for (;;) {
    try {
      return join(realpathSync.native(at), ...missing.reverse());
    } catch {
      const parent = dirname(at);
      if (parent === at) return resolve(path);
      missing.push(basename(at));
      at = parent;
    }
  }
}

const inside = (path: string, dir: string) => path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);

export interface GuardedFolder {
  /** What the message calls it: "data folder", "app folder". */
  what: string;
  path: string;
}

/**
 * Why `workspace` may not be a loop's workspace: a `..` segment (the kernel
 * and Node's path module disagree about it after a symlink), or, once
 * resolved, it is one of the guarded folders, inside one or around one. Null
 * when it is allowed.
 */
export function workspaceOverlap(workspace: string, guarded: readonly GuardedFolder[]): string | null {
  if (workspace.split(/[\\/]+/).includes("..")) return "must not contain `..` segments";
  const ws = physicalPath(workspace);
  for (const { what, path } of guarded) {
    const dir = physicalPath(path);
    if (inside(ws, dir) || inside(dir, ws)) {
      return ws === resolve(workspace)
        ? `must be neither inside nor around the ${what}`
        : `must be neither inside nor around the ${what} (it leads to ${ws})`;
    }
  }
  return null;
}

/** A configuration error no retry can fix: the loop's iteration fails at once with the reason. */
export class WorkspaceGuardError extends AgentError {
  constructor(message: string) {
    super("config", message, { retryable: false });
    this.name = "WorkspaceGuardError";
  }
}

/**
 * The physical folder to use for a workspace, checked now. Callers use the
 * returned path (no symlink left in it) for every git command and spawn, so
 * a link swapped in later cannot redirect them.
 */
export function guardedWorkspace(workspace: string, guarded: readonly GuardedFolder[]): string {
  const problem = workspaceOverlap(workspace, guarded);
  if (problem) throw new WorkspaceGuardError(`workspace ${workspace}: ${problem}`);
  return physicalPath(workspace);
}

// Is a command there to run? The preflight asks before a loop starts, so a
// missing CLI is one clear message on the form, not N failed iterations.
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, isAbsolute, join, resolve } from "node:path";

export type ExecutableLookup =
  | { found: true; path: string }
  | { found: false; reason: string }
  /** A path relative to the workspace that does not exist yet (a worktree is prepared at start). */
  | { found: null; reason: string };

const runnable = (path: string) => {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/**
 * `command` as argv[0] would name it: a bare name is looked up on `pathVar`
 * (the PATH the child inherits), a path is taken as is, relative ones inside
 * `workspace` (when it is known).
 */
export function findExecutable(command: string, pathVar: string, workspace: string | null): ExecutableLookup {
  if (command.includes("/")) {
    if (isAbsolute(command)) {
      return runnable(command)
        ? { found: true, path: command }
        : { found: false, reason: `${command} does not exist or is not executable` };
    }
    if (!workspace) return { found: null, reason: `${command} is looked up in the workspace when the loop starts` };
    const path = resolve(workspace, command);
    return runnable(path)
      ? { found: true, path }
      : {
          found: null,
          reason: `${command} is not in the workspace yet (it may be created before the first iteration)`,
        };
  }
  for (const dir of pathVar.split(delimiter)) {
    if (dir && runnable(join(dir, command))) return { found: true, path: join(dir, command) };
  }
  return { found: false, reason: `"${command}" is not installed on the server (not found on its PATH)` };
}

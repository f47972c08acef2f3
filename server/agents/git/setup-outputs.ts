/**
 * What the setup command installed (node_modules, a .venv, build outputs):
 * the git-ignored paths it left in the loop's new worktree, copied right
 * after it ran, before the agent's first iteration, into a loop-private
 * folder under the data directory (hidden from the agent's sandbox). The
 * grading trees take these dependencies from that copy, so an agent that
 * patches node_modules/<runner> in its worktree is never graded by it.
 * Copies (a copy-on-write clone where the filesystem has them), never hard
 * links: a hard link would share the file the agent can still write.
 */
import { constants, mkdirSync, rmSync } from "node:fs";
import { cp } from "node:fs/promises";
import { dirname, join } from "node:path";
import { git } from "./git-cli";

const clean = (p: string) => p.replace(/\/+$/, "");

/** `path` is `other` or lies inside it. */
const within = (path: string, other: string) => path === other || path.startsWith(`${other}/`);

/**
 * Copies the ignored paths in `dir` (each collapsed to its top ignored folder, as `git status --ignored`
 * shows them) into `to`, replacing what was there; `except` (what .worktreeinclude brought from the user's
 * checkout, graded from there) is left out. Returns the paths copied, relative to `dir`.
 */
export async function captureSetupOutputs(dir: string, to: string, except: readonly string[]): Promise<string[]> {
  const out = await git(dir, ["status", "--porcelain=v1", "-z", "--ignored=traditional", "--untracked-files=normal"]);
  const skip = except.map(clean);
  const paths = out
    .split("\0")
    .filter((e) => e.startsWith("!! "))
    .map((e) => clean(e.slice(3)))
    .filter((p) => p !== "" && !skip.some((s) => within(p, s) || within(s, p)))
    .sort();
  rmSync(to, { recursive: true, force: true });
  for (const path of paths) {
    const target = join(to, path);
    mkdirSync(dirname(target), { recursive: true });
    // Relative links inside (node_modules/.bin) stay relative, so they point into the copy.
    await cp(join(dir, path), target, {
      recursive: true,
      verbatimSymlinks: true,
      mode: constants.COPYFILE_FICLONE,
    });
  }
  return paths;
}

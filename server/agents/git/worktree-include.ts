/**
 * `.worktreeinclude`: the gitignored files a loop's worktree needs from the
 * user's checkout (`.env`, `node_modules`), the convention Claude Code, Codex
 * and Conductor share. The file sits at the repository root and holds
 * gitignore-style patterns; an untracked file or folder is brought in when it
 * matches a pattern AND git ignores it. Git itself does the matching
 * (`ls-files --exclude-from`), so the patterns mean exactly what they mean in
 * a .gitignore, negations included.
 *
 * How they are brought in: copied, as a reflink where the filesystem can
 * (btrfs, XFS, APFS: instant, no extra space), else byte for byte. Never a
 * hard link: a hard-linked file is the user's file, so an agent appending to
 * `.env` or patching a file in `node_modules` in place would change the
 * checkout the loop promises not to touch. Ignored, they are never committed,
 * never in a snapshot or a diff, never protected evidence.
 *
 * Refused, with the entry named: a tracked path, a literal path that does not
 * exist, a pattern reaching outside the repository, a symlink leading out of
 * it, a match git does not ignore (it would be committed as the agent's work).
 */
import { constants, existsSync, lstatSync, readFileSync, realpathSync } from "node:fs";
import { cp, mkdir, rm } from "node:fs/promises";
import { dirname, join, sep } from "node:path";
import { git } from "./git-cli";

export const WORKTREE_INCLUDE = ".worktreeinclude";

export class WorkspaceEnvironmentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WorkspaceEnvironmentError";
  }
}

const bad = (entry: string, why: string) => new WorkspaceEnvironmentError(`${WORKTREE_INCLUDE}: "${entry}" ${why}`);

/** The file's patterns: blank lines and comments dropped, as in a .gitignore. */
export function readIncludePatterns(top: string): string[] {
  const file = join(top, WORKTREE_INCLUDE);
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split(/\r?\n/)
    .map((line) => line.replace(/\s+$/, ""))
    .filter((line) => line !== "" && !line.startsWith("#"));
}

const isGlob = (pattern: string) => /[*?[]/.test(pattern);
const inside = (root: string, path: string) => path === root || path.startsWith(root + sep);

function checkPattern(top: string, realTop: string, pattern: string): string | null {
  const body = pattern.replace(/^!/, "").replace(/^\\/, "");
  const parts = body.split("/").filter((p) => p !== "");
  if (parts.includes("..") || body.startsWith("~")) throw bad(pattern, "points outside the repository");
  if (pattern.startsWith("!") || isGlob(body)) return null;
  // A literal path: it must be there, and stay inside the repository.
  const rel = parts.join("/");
  const abs = join(top, rel);
  try {
    lstatSync(abs);
  } catch {
    throw bad(pattern, `does not exist in ${top}`);
  }
  if (!inside(realTop, realpathSync(abs))) throw bad(pattern, "is a symlink leading out of the repository");
  return rel;
}

/** Untracked paths (folders end in "/") matching the given exclude options, collapsed to whole folders. */
async function untrackedMatching(top: string, excludeArgs: string[]): Promise<string[]> {
  const out = await git(top, ["ls-files", "-z", "--others", "--ignored", "--directory", ...excludeArgs]);
  return out.split("\0").filter((p) => p !== "");
}

/**
 * The paths (relative, no trailing slash) to bring into a worktree of `top`,
 * or a WorkspaceEnvironmentError naming the first bad entry. No file: none.
 */
export async function resolveWorktreeIncludes(top: string): Promise<string[]> {
  const patterns = readIncludePatterns(top);
  if (patterns.length === 0) return [];
  const realTop = realpathSync(top);
  const literals = patterns.map((p) => checkPattern(top, realTop, p)).filter((p): p is string => p !== null);
  if (literals.length > 0) {
    const tracked = await git(top, ["ls-files", "-z", "--", ...literals.map((p) => `:(literal)${p}`)]);
    const trackedSet = new Set(tracked.split("\0").filter((p) => p !== ""));
    const hit = literals.find((p) => trackedSet.has(p));
    if (hit) throw bad(hit, "is tracked by git: every worktree has it already; remove it from the file");
  }
  const [wanted, ignored] = await Promise.all([
    untrackedMatching(top, [`--exclude-from=${join(top, WORKTREE_INCLUDE)}`]),
    untrackedMatching(top, ["--exclude-standard"]),
  ]);
  const ignoredSet = new Set(ignored);
  const isIgnored = (entry: string) => {
    // The entry itself, or a folder git ignores as a whole around it.
    const parts = entry.replace(/\/$/, "").split("/");
    for (let i = 1; i <= parts.length; i++) {
      const prefix = parts.slice(0, i).join("/");
      if (ignoredSet.has(`${prefix}/`) || (i === parts.length && ignoredSet.has(prefix))) return true;
    }
    return false;
  };
  const paths: string[] = [];
  for (const entry of wanted) {
    const rel = entry.replace(/\/$/, "");
    if (!isIgnored(entry)) {
      throw bad(rel, "is not ignored by git: it would be committed as the agent's change; add it to .gitignore");
    }
    if (!inside(realTop, realpathSync(join(top, rel)))) throw bad(rel, "is a symlink leading out of the repository");
    paths.push(rel);
  }
  for (const literal of literals) {
    if (!paths.some((p) => p === literal || literal.startsWith(`${p}/`) || p.startsWith(`${literal}/`))) {
      throw bad(literal, "is not ignored by git: it would be committed as the agent's change; add it to .gitignore");
    }
  }
  return paths.sort();
}

/** Why a copy failed, in the operator's words. */
function copyFailure(path: string, error: unknown): WorkspaceEnvironmentError {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const why =
    code === "ENOSPC" || code === "EDQUOT"
      ? "the disk is full"
      : error instanceof Error
        ? error.message
        : String(error);
  return new WorkspaceEnvironmentError(`could not bring "${path}" from ${WORKTREE_INCLUDE} into the worktree: ${why}`);
}

/**
 * Copies `paths` from the checkout `top` into the worktree `dir`. All or
 * nothing: on a failure (a full disk) what was copied is removed again.
 * Reads only from `top`: the user's files are never written.
 */
export async function bringIncludes(top: string, dir: string, paths: readonly string[]): Promise<void> {
  const done: string[] = [];
  try {
    for (const path of paths) {
      const target = join(dir, path);
      // A partial copy from an attempt that crashed: this worktree has not run an iteration yet.
      await rm(target, { recursive: true, force: true });
      done.push(target);
      await mkdir(dirname(target), { recursive: true });
      await cp(join(top, path), target, {
        recursive: true,
        // A reflink where the filesystem has them, a plain copy otherwise.
        mode: constants.COPYFILE_FICLONE,
        // Relative links inside node_modules (.bin) stay relative, so they point into the worktree.
        verbatimSymlinks: true,
        preserveTimestamps: true,
        errorOnExist: false,
        force: true,
      }).catch((error: unknown) => {
        throw copyFailure(path, error);
      });
    }
  } catch (error) {
    await Promise.all(done.map((t) => rm(t, { recursive: true, force: true }).catch(() => undefined)));
    throw error;
  }
}

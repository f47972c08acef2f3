/**
 * A loop's workspace as a git working tree: its own worktree on branch
 * `ralph/<short id>` when the folder is inside a repository (the user's
 * checkout is never touched), the folder itself with `isolation: "in-place"`,
 * or a fresh `git init` whose existing files become the baseline commit.
 * The baseline is kept as the ref `refs/ralph/<short id>/baseline`, so it is
 * shared by every worktree of the repository and survives restarts.
 */
import { existsSync, lstatSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { git } from "./git-cli";

export type WorkspaceIsolation = "worktree" | "in-place";

export interface PreparedWorkspace {
  /** The folder the agent and the checks run in. */
  dir: string;
  /** The loop branch, or null for an in-place checkout on the user's branch. */
  branch: string | null;
  baselineSha: string;
  mode: "worktree" | "in-place" | "init";
  /**
   * The git directory the folder's `.git` link must point at. The agent can
   * write that link (it lives in its workspace); the server puts it back
   * before each of its own git commands, so it never reads a history the
   * agent made up. The directory itself is outside the workspace.
   */
  gitLink?: string;
}

/**
 * Points `<dir>/.git` at `gitDir` again, whatever the agent left there (a file, a folder, nothing).
 * Returns what was there instead, or null when the link was intact (the grader names it as tampering).
 */
export function restoreGitLink(dir: string, gitDir: string): string | null {
  const link = join(dir, ".git");
  const want = `gitdir: ${gitDir}\n`;
  let found = "nothing";
  try {
    const stat = lstatSync(link);
    if (stat.isFile() && readFileSync(link, "utf8") === want) return null;
    found = stat.isDirectory() ? "a repository of its own" : stat.isFile() ? "a link elsewhere" : "something else";
    rmSync(link, { recursive: true, force: true });
  } catch {
    // absent: written below
  }
  // "wx" (O_CREAT|O_EXCL) never follows a symlink the agent slipped in after the rm: it fails instead.
  writeFileSync(link, want, { flag: "wx" });
  return found;
}

/** Why a repository cannot be used as it is (mid-rebase, mid-merge), or null. */
async function unfinishedOperation(dir: string): Promise<string | null> {
  const gitDir = (await git(dir, ["rev-parse", "--absolute-git-dir"])).trim();
  const states: [string, string][] = [
    ["rebase-merge", "a rebase"],
    ["rebase-apply", "a rebase or am"],
    ["MERGE_HEAD", "a merge"],
    ["CHERRY_PICK_HEAD", "a cherry-pick"],
    ["REVERT_HEAD", "a revert"],
  ];
  const found = states.find(([file]) => existsSync(join(gitDir, file)));
  return found ? `the repository at ${dir} is in the middle of ${found[1]}; finish or abort it first` : null;
}

/** The short id in branch and ref names: the random tail of the (uuidv7) loop id. */
export function shortLoopId(loopId: string): string {
  return loopId.replace(/-/g, "").slice(-8).toLowerCase();
}

export const baselineRef = (loopId: string) => `refs/ralph/${shortLoopId(loopId)}/baseline`;
export const loopBranch = (loopId: string) => `ralph/${shortLoopId(loopId)}`;

async function repoTop(dir: string): Promise<string | null> {
  const out = await git(dir, ["rev-parse", "--show-toplevel"], { allowFail: true });
  return out.trim() === "" ? null : out.trim();
}

async function refSha(dir: string, ref: string): Promise<string | null> {
  const out = await git(dir, ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`], { allowFail: true });
  return out.trim() === "" ? null : out.trim();
}

/** Applies only where git creates an index file; an existing one (the user's, in place) keeps its version. */
const NEW_INDEX_V4 = ["-c", "index.version=4"];

/**
 * Commits everything (untracked included, .gitignore respected); returns the new sha.
 * Plumbing rather than `git commit`: the index `add` just refreshed is written
 * as a tree as it is (commit would stat every file again and may start an
 * auto-gc), and the branch moves only if it is still at `parent`.
 */
async function commitAll(dir: string, message: string, parent?: string | null): Promise<string> {
  const head = parent === undefined ? await refSha(dir, "HEAD") : parent;
  // A loop's own new repository starts with a version 4 index (an existing index keeps its version).
  await git(dir, [...NEW_INDEX_V4, "add", "--all", "--", "."]);
  const tree = (await git(dir, ["write-tree"])).trim();
  const sha = (await git(dir, ["commit-tree", tree, ...(head ? ["-p", head] : []), "-m", message])).trim();
  // An unborn branch has no old value to check against; the empty string says "must not exist yet".
  await git(dir, ["update-ref", "-m", message.slice(0, 200), "HEAD", sha, head ?? ""]);
  return sha;
}

/**
 * Makes (or finds again) the loop's git working tree. Idempotent: a second
 * call for the same loop returns the same folder and baseline.
 * `worktreesDir` is where worktrees go (under the data directory).
 * `startAt` starts a new worktree at that commit instead of HEAD (fork from an iteration).
 */
export async function prepareWorkspace(opts: {
  loopId: string;
  source: string;
  isolation: WorkspaceIsolation;
  worktreesDir: string;
  startAt?: string;
}): Promise<PreparedWorkspace> {
  const { loopId, source } = opts;
  mkdirSync(source, { recursive: true });
  const ref = baselineRef(loopId);
  // A plain folder becomes the loop's own repository. One this loop `git init`ed
  // on an earlier attempt (before a crash or a lost lease) is reused as it is,
  // never given a worktree, and its baseline finished if the crash came first.
  // Its history lives outside the folder (under the data directory, hidden from
  // the sandbox), so the agent cannot rewrite the commits and the baseline the checks trust.
  const ownGitDir = resolve(opts.worktreesDir, ".gitdirs", shortLoopId(loopId));
  if (existsSync(join(ownGitDir, "HEAD"))) restoreGitLink(source, ownGitDir);
  const top = await repoTop(source);
  if (!top) mkdirSync(dirname(ownGitDir), { recursive: true });
  if (!top) await git(source, ["init", "--quiet", `--separate-git-dir=${ownGitDir}`, "-b", loopBranch(loopId)]);
  if (!top || (await isOwnRepository(top, source, loopId))) {
    await clearStaleIndexLock(source);
    const baselineSha =
      (await refSha(source, ref)) ??
      (await setRef(source, ref, await commitAll(source, baselineMessage(loopId)), source));
    const separate = existsSync(join(ownGitDir, "HEAD"));
    return {
      dir: source,
      branch: loopBranch(loopId),
      baselineSha,
      mode: "init",
      ...(separate ? { gitLink: ownGitDir } : {}),
    };
  }
  const unfinished = await unfinishedOperation(top);
  if (unfinished) throw new Error(unfinished);
  if (opts.isolation === "worktree") {
    const dir = resolve(opts.worktreesDir, shortLoopId(loopId));
    const branch = loopBranch(loopId);
    if (!existsSync(join(dir, ".git"))) {
      mkdirSync(dirname(dir), { recursive: true });
      const start = opts.startAt ?? "HEAD";
      // Starts from HEAD: uncommitted changes in the user's checkout stay there (documented in the form).
      const hasBranch = (await refSha(top, `refs/heads/${branch}`)) !== null;
      // Its index in version 4 (paths prefix-compressed, about half the bytes): every snapshot reads and writes
      // the whole index three times (status, update-index, write-tree), so its size is a large part of their cost.
      const add = hasBranch ? ["worktree", "add", dir, branch] : ["worktree", "add", "-b", branch, dir, start];
      await git(top, [...NEW_INDEX_V4, ...add]);
    }
    // The worktree's admin folder lives in the user's repository, outside the workspace.
    const common = (await git(top, ["rev-parse", "--path-format=absolute", "--git-common-dir"])).trim();
    const gitLink = join(common, "worktrees", basename(dir));
    if (existsSync(join(gitLink, "HEAD"))) restoreGitLink(dir, gitLink);
    await clearStaleIndexLock(dir);
    const baselineSha = (await refSha(top, ref)) ?? (await setRef(top, ref, "HEAD", dir));
    return { dir, branch, baselineSha, mode: "worktree", gitLink };
  }
  if ((await git(source, ["symbolic-ref", "-q", "HEAD"], { allowFail: true })).trim() === "") {
    throw new Error(`the repository at ${source} has a detached HEAD; check out a branch to run a loop in place`);
  }
  const baselineSha =
    (await refSha(top, ref)) ?? (await setRef(top, ref, await commitAll(source, baselineMessage(loopId)), source));
  return { dir: source, branch: null, baselineSha, mode: "in-place" };
}

async function isOwnRepository(top: string, source: string, loopId: string): Promise<boolean> {
  if (top !== realpathSync(source)) return false;
  const head = await git(top, ["symbolic-ref", "--short", "HEAD"], { allowFail: true });
  return head.trim() === loopBranch(loopId);
}

/**
 * The loop's lease makes this runtime the only git user of its own tree, so an
 * index.lock there is what a killed attempt left; it would fail every later commit.
 * (A user's checkout, in-place, is never touched: the lock may be theirs.)
 */
async function clearStaleIndexLock(dir: string): Promise<void> {
  const gitDir = (await git(dir, ["rev-parse", "--absolute-git-dir"])).trim();
  rmSync(join(gitDir, "index.lock"), { force: true });
}

const baselineMessage = (loopId: string) => `ralph: baseline for loop ${loopId}`;

async function setRef(repo: string, ref: string, rev: string, cwd: string): Promise<string> {
  const sha = (await git(cwd, ["rev-parse", `${rev}^{commit}`])).trim();
  await git(repo, ["update-ref", ref, sha]);
  return sha;
}

export { snapshotIteration, workingTreeChanges } from "./git-snapshot";
export type { Snapshot } from "./git-snapshot";

/** Paths from `git diff --name-status --no-renames -z` that were modified or deleted (not added). */
export function changedNotAdded(out: string): string[] {
  const parts = out.split("\0").filter((p) => p !== "");
  const files: string[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    if (parts[i] !== "A") files.push(parts[i + 1] ?? "");
  }
  return files;
}

/** Git pathspecs for protected globs (`**` matches across folders, as in the config). */
export const pathspecs = (globs: readonly string[]) => globs.map((g) => `:(glob)${g}`);

/**
 * Protected files that differ from the baseline: modified or deleted ones.
 * New files matching the globs (new tests) are allowed.
 */
export async function tamperedPaths(
  dir: string,
  baselineSha: string,
  globs: readonly string[],
  /** A commit to compare instead of the files on disk. */
  at?: string,
): Promise<string[]> {
  if (globs.length === 0) return [];
  const range = at ? [baselineSha, at] : [baselineSha];
  const out = await git(dir, ["diff", "--name-status", "--no-renames", "-z", ...range, "--", ...pathspecs(globs)]);
  return changedNotAdded(out);
}

/**
 * Commits the index as it stands (no `add`): after a restore it holds the
 * snapshot plus the restored files, and nothing a check wrote meanwhile.
 */
export async function commitStaged(dir: string, message: string): Promise<string> {
  const parent = (await git(dir, ["rev-parse", "HEAD"])).trim();
  const tree = (await git(dir, ["write-tree"])).trim();
  const sha = (await git(dir, ["commit-tree", tree, "-p", parent, "-m", message])).trim();
  await git(dir, ["update-ref", "-m", message.slice(0, 200), "HEAD", sha, parent]);
  return sha;
}

/** Puts the baseline version of `paths` back in the working tree (and the index). */
export async function restorePaths(dir: string, baselineSha: string, paths: readonly string[]): Promise<void> {
  if (paths.length === 0) return;
  await git(dir, ["checkout", baselineSha, "--", ...paths]);
}

/**
 * Returns the working tree to `sha`'s content as a new commit on top of the
 * loop branch: history is never rewritten.
 */
export async function rollbackTo(dir: string, sha: string, message: string): Promise<string> {
  // Index and files become `sha`'s tree; files tracked now but absent there are removed.
  await git(dir, ["read-tree", "-u", "--reset", sha]);
  // Untracked leftovers written after the last snapshot (ignored files stay).
  await git(dir, ["clean", "-f", "-d", "-q"]);
  return commitAll(dir, message);
}

/** Removes the loop's worktree (the branch stays). An operator action, never silent. */
export async function removeWorktree(dir: string): Promise<void> {
  const common = (await git(dir, ["rev-parse", "--path-format=absolute", "--git-common-dir"])).trim();
  // Run from the common git directory: it is the repository whether or not it sits in a checkout.
  await git(common, ["worktree", "remove", "--force", dir]);
}

/**
 * The git side of landing a loop's branch (docs/merge-queue.md): a private,
 * detached landing worktree per queue under the data folder, the rebase (or
 * merge) onto the target's current head there, and the one compare-and-swap
 * of the target ref at the end (`update-ref <ref> <new> <old>`: never a
 * force). A clean checkout of the target is brought forward with it (git's
 * own two-tree checkout, which refuses rather than overwrite); one with
 * uncommitted changes is refused and never written.
 */
import { existsSync, realpathSync, rmSync } from "node:fs";
import { git, GitError } from "./git-cli";

export interface LandingRepo {
  /** The repository's common git directory (physical): the queue's key. */
  common: string;
}

/** The repository holding `dir`, by its common git directory. */
export async function landingRepoOf(dir: string): Promise<LandingRepo> {
  const common = (await git(dir, ["rev-parse", "--path-format=absolute", "--git-common-dir"])).trim();
  return { common: realpathSync(common) };
}

export async function refSha(common: string, ref: string): Promise<string | null> {
  const out = await git(common, ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`], { allowFail: true });
  return out.trim() === "" ? null : out.trim();
}

export const branchRef = (branch: string) => `refs/heads/${branch}`;

/** Whether `ancestor` is reachable from `of` (`merge-base --is-ancestor` answers by exit code only). */
export async function isAncestor(common: string, ancestor: string, of: string): Promise<boolean> {
  const back = await git(common, ["rev-list", "--count", `${of}..${ancestor}`], { allowFail: true });
  return back.trim() === "0";
}

interface WorktreeInfo {
  path: string;
  branch: string | null;
}

async function worktrees(common: string): Promise<WorktreeInfo[]> {
  const out = await git(common, ["worktree", "list", "--porcelain"]);
  const list: WorktreeInfo[] = [];
  for (const block of out.split("\n\n")) {
    const path = /^worktree (.+)$/m.exec(block)?.[1];
    if (!path) continue;
    if (/^bare$/m.test(block)) continue;
    list.push({ path, branch: /^branch (.+)$/m.exec(block)?.[1] ?? null });
  }
  return list;
}

/** The checkouts (other than ours) that have `target` checked out and still exist. */
async function targetCheckouts(common: string, target: string, ours: string): Promise<string[]> {
  return (await worktrees(common))
    .filter((wt) => wt.branch === branchRef(target) && wt.path !== ours && existsSync(wt.path))
    .map((wt) => wt.path);
}

/** `read-tree -m` trusts the index's stat data: refreshed first (what `git status` does too; no content changes). */
const refreshIndex = (dir: string) => git(dir, ["update-index", "-q", "--refresh"], { allowFail: true });

/** git's own error lines of a failed command, for the reason shown to the operator. */
const gitWhy = (error: unknown) =>
  (error instanceof GitError ? error.stderr : String(error))
    .split("\n")
    .filter((l) => /^(error|fatal):/.test(l))
    .map((l) => l.replace(/^(error|fatal):\s*/, ""))
    .join("; ") || String(error);

/**
 * Why the target branch cannot be moved now, or null. A checkout (the user's,
 * or any other worktree) with the target branch checked out must be clean:
 * with uncommitted changes to tracked files the landing is refused. Clean, it
 * lands, and that checkout is brought forward with the ref (forwardCheckouts);
 * given the move (`from` → `to`), this also asks git, without writing
 * anything, whether that fast-forward of its files would go through (an
 * untracked or ignored file in the way, for one, and it would not).
 */
export async function targetCheckoutProblem(
  common: string,
  target: string,
  ours: string,
  move?: { from: string; to: string },
): Promise<string | null> {
  for (const path of await targetCheckouts(common, target, ours)) {
    const status = await git(path, ["status", "--porcelain", "--untracked-files=no"], { allowFail: true });
    if (status.trim() !== "")
      return `the checkout at ${path} has ${target} checked out with uncommitted changes; commit or discard them there (Ralph never touches your working tree), then re-queue`;
    if (!move) continue;
    await refreshIndex(path);
    try {
      await git(path, ["read-tree", "-m", "-u", "-n", move.from, move.to]);
    } catch (error) {
      return `the checkout at ${path} has ${target} checked out and its files cannot be brought forward: ${gitWhy(error)}. Move those files out of the way there (Ralph never touches them), then re-queue`;
    }
  }
  return null;
}

/**
 * After the target moved `from` → `to`, brings each clean checkout that has it
 * checked out forward with it: `read-tree -m -u from to`, git's two-tree
 * checkout, which writes nothing unless every path it changes is unmodified
 * and no untracked file is in the way (a change the user made between our
 * check and now is never overwritten: that checkout is reported instead). A
 * checkout whose index already holds `to` is done (a lander killed after its
 * read-tree); one whose index holds neither tree is someone else's work and is
 * only reported. Returns the reasons for the checkouts left behind.
 */
export async function forwardCheckouts(
  common: string,
  target: string,
  ours: string,
  move: { from: string; to: string },
): Promise<string[]> {
  const left: string[] = [];
  for (const path of await targetCheckouts(common, target, ours)) {
    if (await indexHolds(path, move.to)) continue;
    const how = `run \`git -C ${path} read-tree -m -u ${move.from.slice(0, 12)} ${move.to.slice(0, 12)}\` once your changes are saved elsewhere`;
    if (!(await indexHolds(path, move.from))) {
      left.push(
        `the checkout at ${path} was not brought forward to ${target}: its index is neither the old nor the new head; ${how}`,
      );
      continue;
    }
    await refreshIndex(path);
    try {
      await git(path, ["read-tree", "-m", "-u", move.from, move.to]);
    } catch (error) {
      left.push(
        `the checkout at ${path} was not brought forward to ${target} (${gitWhy(error)}); nothing in it was changed; ${how}`,
      );
    }
  }
  return left;
}

/** Whether the index of the checkout at `path` holds exactly `sha`'s tree (read-only: no stat refresh). */
async function indexHolds(path: string, sha: string): Promise<boolean> {
  try {
    return (await git(path, ["diff-index", "--cached", "--name-only", sha, "--"])).trim() === "";
  } catch {
    return false;
  }
}

/**
 * The queue's landing worktree at `sha`, detached, with nothing left of an
 * earlier attempt: a rebase or merge a killed lander left is aborted, files
 * reset and cleaned. A folder that is no longer a worktree is made again.
 */
export async function resetLandingWorktree(common: string, dir: string, sha: string): Promise<void> {
  if (existsSync(dir)) {
    const ok = (await git(dir, ["rev-parse", "--is-inside-work-tree"], { allowFail: true })).trim() === "true";
    if (!ok) rmSync(dir, { recursive: true, force: true });
  }
  if (!existsSync(dir)) {
    await git(common, ["worktree", "prune"], { allowFail: true });
    await git(common, ["worktree", "add", "--detach", "--force", dir, sha]);
  }
  const gitDir = (await git(dir, ["rev-parse", "--absolute-git-dir"])).trim();
  rmSync(`${gitDir}/index.lock`, { force: true });
  await git(dir, ["rebase", "--abort"], { allowFail: true });
  await git(dir, ["merge", "--abort"], { allowFail: true });
  rmSync(`${gitDir}/rebase-merge`, { recursive: true, force: true });
  rmSync(`${gitDir}/rebase-apply`, { recursive: true, force: true });
  await git(dir, ["checkout", "--detach", "--force", sha]);
  await git(dir, ["reset", "--hard", "--quiet", sha]);
  await git(dir, ["clean", "-f", "-d", "-x", "-q"]);
}

export type Integration = { ok: true; sha: string } | { ok: false; conflicts: string[]; diff: string; message: string };

const DIFF_CAP = 16_000;

/**
 * Brings `source` onto `base` in the landing worktree: `rebase` replays the
 * loop's commits on it, `merge` makes a merge commit with `base` as first
 * parent. Either way the result descends from `base`, so the target moves by
 * a fast-forward. On a conflict the operation is aborted and the conflicted
 * files and their diff (with the markers) are returned.
 */
export async function integrate(
  dir: string,
  opts: { strategy: "rebase" | "merge"; base: string; source: string; message: string },
): Promise<Integration> {
  const cmd =
    opts.strategy === "rebase"
      ? (await git(dir, ["checkout", "--detach", "--force", opts.source]), ["rebase", opts.base])
      : (await git(dir, ["checkout", "--detach", "--force", opts.base]),
        ["merge", "--no-ff", "--no-edit", "-m", opts.message, opts.source]);
  try {
    await git(dir, cmd);
    return { ok: true, sha: (await git(dir, ["rev-parse", "HEAD"])).trim() };
  } catch (error) {
    const conflicts = (await git(dir, ["diff", "--name-only", "--diff-filter=U"], { allowFail: true }))
      .split("\n")
      .filter((f) => f !== "");
    const diff = (await git(dir, ["diff"], { allowFail: true })).slice(0, DIFF_CAP);
    await git(dir, [opts.strategy, "--abort"], { allowFail: true });
    return { ok: false, conflicts, diff, message: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Moves the target branch from `expected` to `next`, atomically, only if it is
 * still at `expected`: git's ref transaction compares and swaps under the ref
 * lock. Returns false when the target had moved (nothing was changed).
 */
export async function compareAndSwapBranch(
  common: string,
  target: string,
  next: string,
  expected: string,
  message: string,
): Promise<boolean> {
  try {
    await git(common, ["update-ref", "-m", message.slice(0, 200), branchRef(target), next, expected]);
    return true;
  } catch {
    return false;
  }
}

/**
 * A commit on `base` holding the loop's change merged three-way onto it, with
 * conflict markers left in the conflicted files: where a loop sent back to
 * work starts (its agent resolves the markers). Kept reachable by `keepRef`.
 */
export async function reviewCommit(
  common: string,
  opts: { base: string; source: string; message: string; keepRef: string },
): Promise<{ sha: string; conflicts: string[] }> {
  const out = await git(
    common,
    ["merge-tree", "--write-tree", "--name-only", "--no-messages", opts.base, opts.source],
    {
      allowFail: true,
    },
  );
  const [tree = "", ...files] = out.split("\n").filter((l) => l !== "");
  const sha = (await git(common, ["commit-tree", tree, "-p", opts.base, "-m", opts.message])).trim();
  await git(common, ["update-ref", opts.keepRef, sha]);
  return { sha, conflicts: files };
}

/**
 * The per-iteration snapshot: the whole working tree committed to the loop
 * branch, with its diffstat. It costs what changed, not the size of the
 * repository: one `git status` (with the untracked cache, which git keeps in
 * the index, so unchanged folders are not read again) finds the changed
 * paths; only those are staged (`update-index` of just them, not a walk of
 * the tree); the index is written as a tree (its cache-tree makes that cheap);
 * and the diffs, which depend on the tree alone, run while the commit is
 * being made. What is committed is what `git add --all` would commit: a
 * state the targeted add does not know (an unmerged path) falls back to it.
 */
import type { WorkspaceFileChange, WorkspaceSnapshot } from "../../engine";
import { git } from "./git-cli";

export type FileChange = WorkspaceFileChange;

/** The engine's snapshot type: what the iteration record carries. */
export type Snapshot = WorkspaceSnapshot;

export interface TreeChanges {
  head: string | null;
  /** Nothing differs from HEAD (tracked, staged or untracked and not ignored). */
  clean: boolean;
  /** Paths whose working-tree state differs from the index: exactly what `add --all` would stage. */
  paths: string[];
  /** A state the targeted add does not handle (unmerged paths): stage with `add --all`. */
  needsFullAdd: boolean;
}

/** The path field of a porcelain v2 record: everything after the first `fields` space-separated fields. */
function pathAfter(entry: string, fields: number): string {
  let at = 0;
  for (let i = 0; i < fields; i++) at = entry.indexOf(" ", at) + 1;
  return entry.slice(at);
}

/**
 * HEAD and what changed, from one `git status --porcelain=v2 -z`.
 * `-unormal`, not `-uall`: git 2.39's untracked cache serves only this mode
 * (a new folder is one entry, which `git add` expands).
 */
export async function workingTreeChanges(dir: string): Promise<TreeChanges> {
  const out = await git(dir, ["status", "--porcelain=v2", "--branch", "-z", "--untracked-files=normal"]);
  const entries = out.split("\0");
  let head: string | null = null;
  let clean = true;
  let needsFullAdd = false;
  const paths: string[] = [];
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    if (entry === "") continue;
    if (entry.startsWith("# branch.oid ")) {
      const oid = entry.slice("# branch.oid ".length).trim();
      head = /^[0-9a-f]{40,64}$/.test(oid) ? oid : null;
      continue;
    }
    if (entry.startsWith("#")) continue;
    clean = false;
    const kind = entry.charAt(0);
    // XY: index and working-tree state; "." in Y means the file on disk is what the index holds.
    const worktree = entry.charAt(3);
    if (kind === "?") paths.push(entry.slice(2));
    else if (kind === "1") {
      if (worktree !== ".") paths.push(pathAfter(entry, 8));
    } else if (kind === "2") {
      // A staged rename; its original path follows as the next field and is no longer in the index.
      if (worktree !== ".") paths.push(pathAfter(entry, 9));
      i++;
    } else needsFullAdd = true; // "u" (unmerged) and anything newer
  }
  return { head, clean, paths, needsFullAdd };
}

/**
 * Stages what changed. Files alone: `update-index` of just those (no walk of
 * the tree, no ignore rules needed: status already left ignored files out).
 * A new folder (status names it, not its files): `git add` of the paths,
 * which expands it by the ignore rules. Anything else, or a failure (a path
 * that changed again meanwhile): `git add --all`, as before.
 */
async function stage(dir: string, changes: TreeChanges): Promise<void> {
  if (!changes.needsFullAdd && changes.paths.length > 0) {
    const folders = changes.paths.some((p) => p.endsWith("/"));
    try {
      await git(
        dir,
        folders
          ? ["--literal-pathspecs", "add", "--all", "--pathspec-from-file=-", "--pathspec-file-nul"]
          : ["update-index", "--add", "--remove", "-z", "--stdin"],
        { input: changes.paths.map((p) => `${p}\0`).join("") },
      );
      return;
    } catch {
      // fall through to the full add
    }
  }
  await git(dir, ["add", "--all", "--", "."]);
}

const STATUS: Record<string, FileChange["status"]> = { A: "added", M: "modified", D: "deleted", R: "renamed" };

/**
 * Parses `git diff --raw --numstat -z -M` into files with +/- (binary files count 0/0 and say so).
 * With `-p` too, the unified diff follows the records after one empty field: `patch` is it ("" without).
 */
export function parseRawNumstat(out: string): FileChange[] {
  return parseDiffRecords(out).files;
}

function parseDiffRecords(out: string): { files: FileChange[]; patch: string } {
  let at = 0;
  // The next NUL-terminated field (the rest of the output when none is left).
  const field = () => {
    const end = out.indexOf("\0", at);
    const value = out.slice(at, end < 0 ? out.length : end);
    at = end < 0 ? out.length : end + 1;
    return value;
  };
  const files: FileChange[] = [];
  // Raw records first: ":<modes> <shas> <status>" then the path, or two for renames and copies.
  while (out.startsWith(":", at)) {
    const code = field().split(" ").pop()!.charAt(0);
    const status = STATUS[code] ?? "modified";
    const from = code === "R" || code === "C" ? field() : undefined;
    const path = field();
    files.push({ path, status, ...(from ? { from } : {}), insertions: 0, deletions: 0, binary: false });
  }
  // Then one numstat record per file, in the same order: "ins\tdel\tpath", or "ins\tdel\t" then old and new paths.
  const counts = new Map<string, { ins: number; del: number; binary: boolean }>();
  for (let n = 0; n < files.length && at < out.length; n++) {
    const [ins = "", del = "", path = ""] = field().split("\t");
    let target = path;
    if (path === "") {
      field();
      target = field();
    }
    counts.set(target, { ins: Number(ins) || 0, del: Number(del) || 0, binary: ins === "-" });
  }
  for (const f of files) {
    const c = counts.get(f.path);
    if (c) Object.assign(f, { insertions: c.ins, deletions: c.del, binary: c.binary });
  }
  // The patch (a text diff holds no NUL: git calls such a file binary) after its separating empty field.
  const patch = out.startsWith("\0", at) ? out.slice(at + 1) : "";
  return { files, patch };
}

/**
 * The files changed between two trees, with +/-, and the unified diff, from one git process
 * (each spawn is a large part of a small snapshot). A diff too large to read (past the output cap)
 * gives the files from a patch-less diff and `patch: null` with the reason.
 */
export async function filesAndPatch(
  dir: string,
  from: string,
  to: string,
): Promise<{ files: FileChange[]; patch: string | null; error?: string }> {
  try {
    const out = await git(dir, [
      "diff",
      "--no-color",
      "--no-ext-diff",
      "--raw",
      "--numstat",
      "-p",
      "-M",
      "-z",
      from,
      to,
    ]);
    return parseDiffRecords(out);
  } catch (error) {
    return {
      files: await changesBetween(dir, from, to),
      patch: null,
      error: error instanceof Error ? error.message : String(error),
    };
  }
}

/** Files changed between two commits or trees, with +/- per file. */
export async function changesBetween(dir: string, from: string, to: string): Promise<FileChange[]> {
  return parseRawNumstat(await git(dir, ["diff", "--raw", "--numstat", "-M", "-z", from, to]));
}

/** A snapshot as the iteration records it, with its unified diff (null: too large to read, `patchError` says why). */
export interface TakenSnapshot<T> extends Snapshot {
  patch: string;
  patchError?: string;
  alongside?: T;
}

/**
 * Commits the whole working tree to the loop branch after the agent ran (before any check); an unchanged tree is HEAD.
 * The diff (files, +/- and patch, one process) and `alongside(parent, tree)` start as soon as the tree is
 * written, while the commit is made: they need only the tree.
 */
export async function snapshotIteration<T = undefined>(
  dir: string,
  loopId: string,
  iteration: number,
  alongside?: (parentSha: string, tree: string) => Promise<T>,
): Promise<TakenSnapshot<T>> {
  const changes = await workingTreeChanges(dir);
  // Nothing changed since HEAD: the iteration's snapshot is HEAD itself. No
  // commit and no diffs, which would be empty: each git process is a spawn,
  // a large part of an instant iteration's overhead.
  if (changes.clean && changes.head) {
    const head = changes.head;
    return { sha: head, parentSha: head, files: [], insertions: 0, deletions: 0, patch: "" };
  }
  const parentSha = changes.head ?? (await git(dir, ["rev-parse", "HEAD"])).trim();
  await stage(dir, changes);
  const tree = (await git(dir, ["write-tree"])).trim();
  const message = `ralph: loop ${loopId} iteration ${iteration}`;
  const commit = (async () => {
    const sha = (await git(dir, ["commit-tree", tree, "-p", parentSha, "-m", message])).trim();
    // The branch moves only if it is still at the parent.
    await git(dir, ["update-ref", "-m", message.slice(0, 200), "HEAD", sha, parentSha]);
    return sha;
  })();
  const [sha, diff, extra] = await Promise.all([
    commit,
    filesAndPatch(dir, parentSha, tree),
    alongside ? alongside(parentSha, tree) : Promise.resolve(undefined),
  ]);
  const { files } = diff;
  return {
    sha,
    parentSha,
    files,
    insertions: files.reduce((n, f) => n + f.insertions, 0),
    deletions: files.reduce((n, f) => n + f.deletions, 0),
    patch: diff.patch ?? "",
    ...(diff.patch === null ? { patchError: diff.error ?? "the diff could not be read" } : {}),
    ...(alongside ? { alongside: extra as T } : {}),
  };
}

/**
 * The clean tree a check is graded in: a detached git worktree of the loop's
 * repository, under the data folder (hidden from the agent's sandbox), set to
 * the iteration's snapshot commit with every protected path put back to the
 * base commit and new runner hooks or tests under protected paths removed.
 * The agent never wrote here: its process group is gone before the snapshot,
 * and the check alone runs in this folder. Harness practice (SWE-bench,
 * terminal-bench): tests are reset and copied in after the agent's turn.
 */
import { cpSync, existsSync, mkdirSync, rmSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { git } from "../git/git-cli";
import { pathspecs } from "../git/git-workspace";
import { freshDependencyCopy, isLink } from "./dependency-copy";
import { mergePackageTestFields } from "./package-fields";
import type { ProtectedEntry } from "./protected-set";

export interface GradingTree {
  dir: string;
  /** Protected files the commit changed or deleted (put back to the base commit here). */
  restored: string[];
  /** Files the commit added under protected paths (removed here). */
  removed: string[];
  /** Of `removed`, those under runner configuration or the check's own files (hooks): tampering, not new tests. */
  hooks: string[];
  /** package.json files whose test fields (scripts, runner config) the commit changed; put back to the base. */
  fields: Record<string, string[]>;
}

/**
 * Ignored folders a check needs and git does not hold: copied from the user's checkout when .worktreeinclude
 * brought them from there, or from the copy of what the setup command installed (made before the agent ran),
 * else linked from the loop's workspace (what the agent installed itself, or records older than the copy).
 */
const LINKED = ["node_modules"];

/**
 * What to link: node_modules, plus what the loop's .worktreeinclude brought in (a .venv, an .env), as the
 * server recorded it before the agent ran, so the agent cannot widen the list (an ignored conftest.py of its own).
 */
export const linkedPaths = (included: readonly string[]) => [
  ...new Set([...LINKED, ...included.map((p) => p.replace(/\/+$/, "")).filter((p) => p !== "" && !p.startsWith(".."))]),
];

async function ensureWorktree(repoDir: string, dir: string, sha: string): Promise<void> {
  if (existsSync(join(dir, ".git"))) return;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dirname(dir), { recursive: true });
  // A stale registration of the same folder (a crash between add and use) would refuse the add.
  await git(repoDir, ["worktree", "prune"], { allowFail: true });
  // Loops of one repository (a race's contenders) grade at once: another's prune can remove a
  // registration this add has just made, before git locks it ("could not open .../locked"). Again, then.
  for (let attempt = 1; ; attempt++) {
    try {
      await git(repoDir, ["worktree", "add", "--detach", "--force", dir, sha]);
      return;
    } catch (error) {
      if (attempt >= 3) throw error;
      rmSync(dir, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 50 * attempt));
    }
  }
}

/**
 * Makes `dir` hold `sha` exactly (tracked files only; untracked and ignored
 * ones removed but the linked folders), then resets protected paths to
 * `baselineSha`. `entries` empty: the commit as it is (the baseline run).
 */
export async function gradingTree(opts: {
  repoDir: string;
  dir: string;
  sha: string;
  baselineSha: string;
  entries: readonly ProtectedEntry[];
  /** Ignored paths brought into the loop's worktree (.worktreeinclude), linked like node_modules. */
  included?: readonly string[];
  /**
   * The user's checkout `included` came from. Those paths are copied from there (once per tree), never
   * from the loop's worktree: an agent that patched node_modules/<runner> there must not be graded by it.
   * Copied, not linked or hard-linked: the check's own run writes in this tree (a hard link would write
   * through to the user's files), and the user's checkout may be hidden in the check's sandbox.
   */
  includedFrom?: string;
  /** Ignored paths the setup command produced (node_modules), copied before the agent ran. */
  setupOutputs?: readonly string[];
  /** Where that copy is (setup-outputs.ts): those paths are copied from there, like `includedFrom`'s. */
  setupFrom?: string;
}): Promise<GradingTree> {
  const { dir } = opts;
  const setupOutputs = opts.setupFrom ? (opts.setupOutputs ?? []) : [];
  const linked = linkedPaths([...(opts.included ?? []), ...setupOutputs]);
  await ensureWorktree(opts.repoDir, dir, opts.sha);
  await git(dir, ["read-tree", "-u", "--reset", opts.sha]);
  await git(dir, ["clean", "-ffdxq", ...linked.flatMap((l) => ["-e", `/${l}`])]);
  const fromCheckout = new Set((opts.included ?? []).map((p) => p.replace(/\/+$/, "")));
  const fromSetup = new Set(setupOutputs);
  for (const name of linked) {
    const to = join(dir, name);
    const pristine =
      opts.includedFrom && fromCheckout.has(name)
        ? join(opts.includedFrom, name)
        : opts.setupFrom && fromSetup.has(name)
          ? join(opts.setupFrom, name)
          : null;
    if (pristine && existsSync(pristine)) {
      // A link an older tree made to the agent's copy goes; a copy already made stays for the loop while
      // nothing wrote in it (the code under test runs here and could patch the runner for the next run).
      await freshDependencyCopy(pristine, to);
      continue;
    }
    const from = join(opts.repoDir, name);
    if (LINKED.includes(name)) {
      if (existsSync(from) && !isLink(to)) {
        rmSync(to, { recursive: true, force: true });
        symlinkSync(from, to, "dir");
      }
    } else if (existsSync(from) && !existsSync(to)) {
      // A .venv's scripts name their interpreter by absolute path inside it: a copy made once for this tree
      // (kept across iterations: `git clean` above leaves it) runs where a link to the workspace is not seen.
      mkdirSync(dirname(to), { recursive: true });
      cpSync(from, to, { recursive: true, verbatimSymlinks: true });
    }
  }
  const restored: string[] = [];
  const removed: string[] = [];
  const hooks: string[] = [];
  const fields: Record<string, string[]> = {};
  if (opts.entries.length > 0 && opts.sha !== opts.baselineSha) {
    const specs = pathspecs(opts.entries.map((e) => e.glob));
    const out = await git(dir, [
      "diff",
      "--name-status",
      "--no-renames",
      "-z",
      opts.baselineSha,
      opts.sha,
      "--",
      ...specs,
    ]);
    const parts = out.split("\0").filter((p) => p !== "");
    for (let i = 0; i + 1 < parts.length; i += 2) {
      const path = parts[i + 1]!;
      if (parts[i] === "A") removed.push(path);
      else restored.push(path);
    }
    const hookSpecs = pathspecs(opts.entries.filter((e) => e.kind !== "tests").map((e) => e.glob));
    if (removed.length > 0 && hookSpecs.length > 0) {
      const added = await git(dir, [
        "diff",
        "--name-only",
        "--diff-filter=A",
        "-z",
        opts.baselineSha,
        opts.sha,
        "--",
        ...hookSpecs,
      ]);
      hooks.push(...added.split("\0").filter((p) => p !== ""));
    }
    // package.json by field: a new dependency is allowed, changed test fields are put back and named.
    for (const path of [...restored]) {
      const changed = await mergePackageTestFields(dir, opts.baselineSha, path);
      if (changed === null) continue;
      restored.splice(restored.indexOf(path), 1);
      if (changed.length > 0) fields[path] = changed;
    }
    if (restored.length > 0) await git(dir, ["checkout", opts.baselineSha, "--", ...restored]);
    for (const path of removed) rmSync(join(dir, path), { force: true });
  }
  return { dir, restored, removed, hooks, fields };
}

/**
 * A loop whose workspace is a folder inside a repository (a package of a
 * monorepo) gets a worktree of the whole repository, and runs, agent and
 * checks, in that same folder of it: the agent's cwd, what it may write, and
 * the checks' cwd are the package, as in the checkout. Snapshots, diffs and
 * the tamper check still cover the whole worktree.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { git } from "./git-cli";
import type { PreparedWorkspace } from "./git-workspace";

const prefixes = new Map<string, Promise<string>>();

/** `source`'s path inside its repository ("" at the top), as git sees it. */
export function repoPrefix(source: string): Promise<string> {
  let p = prefixes.get(source);
  if (!p) {
    p = git(source, ["rev-parse", "--show-prefix"]).then((out) => out.trim().replace(/\/$/, ""));
    p.catch(() => prefixes.delete(source));
    prefixes.set(source, p);
  }
  return p;
}

/** The folder the loop runs in: the worktree's copy of the workspace folder (the worktree itself at the top). */
export async function workspaceFolder(ws: PreparedWorkspace, source: string): Promise<string> {
  if (ws.mode !== "worktree") return ws.dir;
  const prefix = await repoPrefix(source);
  if (prefix === "") return ws.dir;
  const dir = join(ws.dir, prefix);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * The git side of a loop's workspace, as the adapters see it: the folder to
 * run in (prepared once per loop), the snapshot after each agent run, and
 * the protected-evidence guard the checks call before they run. Snapshots
 * and restores are made here by the server, outside the agent sandbox.
 */
import { existsSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { git } from "./git-cli";
import { capDiff, diffPatch, type CappedDiff } from "./git-diff";
import { workspaceFolder } from "./workspace-subfolder";
import {
  baselineRef,
  changedNotAdded,
  commitStaged,
  loopBranch,
  pathspecs,
  prepareWorkspace,
  removeWorktree,
  restoreGitLink,
  restorePaths,
  rollbackTo,
  shortLoopId,
  snapshotIteration,
  tamperedPaths,
  type PreparedWorkspace,
  type Snapshot,
  type WorkspaceIsolation,
} from "./git-workspace";

export type TamperPolicy = "restore" | "fail";

export interface EvidenceSettings {
  protectedPaths: readonly string[];
  onTamper: TamperPolicy;
}

export interface TamperCheck {
  /** Protected files modified or deleted since the baseline (empty: none). */
  tampered: string[];
  policy: TamperPolicy;
  /** The baseline version was put back before the checks ran. */
  restored: boolean;
}

/** One iteration's snapshot, its code diff and the protected files it left changed. */
export interface IterationSnapshot {
  snapshot: Snapshot;
  diff: CappedDiff;
  /** Protected files modified or deleted since the baseline, as the snapshot holds them. */
  tampered: string[];
  policy: TamperPolicy;
}

export interface LoopGitWorkspace {
  dir(loopId: string): Promise<string>;
  /** The prepared workspace: folder, branch, baseline. */
  prepared(loopId: string): Promise<PreparedWorkspace>;
  snapshot(loopId: string, iteration: number): Promise<IterationSnapshot>;
  /** Returns the files to `sha` as a new commit on the loop branch; the new commit's sha. */
  rollback(loopId: string, sha: string, message: string): Promise<string>;
  /** The diff of the loop's current commit against its baseline. */
  patch(loopId: string): Promise<string>;
  /**
   * Removes the loop's own worktree folder (an operator action on an ended
   * loop). The branch, its commits and the baseline ref stay in the
   * repository, so the patch still downloads; the folder is not made again.
   */
  removeWorktree(loopId: string): Promise<{ dir: string; branch: string }>;
  /** Called by every check before it runs; restores under the `restore` policy (`extra`: derived globs too). */
  protectEvidence(loopId: string, extra?: readonly string[]): Promise<TamperCheck>;
  /** The commit the iteration's checks grade: its snapshot, else HEAD. */
  currentSnapshot(loopId: string): Promise<string>;
  /** What the agent had put in place of `.git` before this iteration's snapshot put the link back (empty: nothing). */
  gitTampering(loopId: string): string[];
}

export function loopGitWorkspace(opts: {
  source: (loopId: string) => string;
  isolation: WorkspaceIsolation;
  worktreesDir: string;
  evidence: EvidenceSettings;
  startAt?: string;
}): LoopGitWorkspace {
  const prepared = new Map<string, Promise<PreparedWorkspace>>();
  // The iteration's own snapshot: a restore commit may sit on top of it while its checks run.
  const lastSnapshot = new Map<string, string>();
  const lastTampered = new Map<string, { sha: string; files: string[] }>();
  // A replaced `.git`, seen while putting the link back: pending until the next snapshot claims it for its iteration.
  const gitLinkPending = new Map<string, string[]>();
  const gitLinkSeen = new Map<string, string[]>();
  const removedMarker = (loopId: string) => resolve(opts.worktreesDir, `${shortLoopId(loopId)}.removed`);
  const prepare = (loopId: string) => {
    if (existsSync(removedMarker(loopId))) {
      return Promise.reject(
        new Error(`the loop's worktree was removed by an operator; branch ${loopBranch(loopId)} keeps its work`),
      );
    }
    // Resolved and checked on every use, before any git command (workspace-guard.ts): a link swapped in is refused.
    let source: string;
    try {
      source = opts.source(loopId);
    } catch (error) {
      prepared.delete(loopId);
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    let p = prepared.get(loopId);
    if (!p) {
      p = prepareWorkspace({
        loopId,
        source,
        isolation: opts.isolation,
        worktreesDir: opts.worktreesDir,
        ...(opts.startAt ? { startAt: opts.startAt } : {}),
      });
      // A failure (no git, locked repo) is retried on the next call instead of sticking.
      p.catch(() => prepared.delete(loopId));
      prepared.set(loopId, p);
    }
    // Every use re-points the `.git` link the agent could have rewritten.
    return p.then((ws) => {
      const found = ws.gitLink ? restoreGitLink(ws.dir, ws.gitLink) : null;
      if (found)
        gitLinkPending.set(loopId, [...(gitLinkPending.get(loopId) ?? []), `.git was replaced by ${found}; put back`]);
      return ws;
    });
  };
  return {
    // A folder inside the repository (a monorepo package) runs in that folder of the worktree.
    dir: async (loopId) => workspaceFolder(await prepare(loopId), opts.source(loopId)),
    prepared: prepare,
    async snapshot(loopId, iteration) {
      const ws = await prepare(loopId);
      gitLinkSeen.set(loopId, gitLinkPending.get(loopId) ?? []);
      gitLinkPending.delete(loopId);
      // The tamper check depends only on the tree: it runs while the commit is made (the diff comes with the
      // snapshot, from the same git process as its file list), and the same commit as last time gives the same files.
      const known = lastTampered.get(loopId);
      const taken = await snapshotIteration(ws.dir, loopId, iteration, (_parentSha, tree) =>
        tamperedPaths(ws.dir, ws.baselineSha, opts.evidence.protectedPaths, tree),
      );
      const { alongside, patch, patchError, ...snapshot } = taken;
      lastSnapshot.set(loopId, snapshot.sha);
      const diff: CappedDiff =
        patchError !== undefined ? { text: `… [diff not stored: ${patchError}]\n`, truncated: true } : capDiff(patch);
      const tampered =
        alongside ??
        (known?.sha === snapshot.sha
          ? known.files
          : await tamperedPaths(ws.dir, ws.baselineSha, opts.evidence.protectedPaths, snapshot.sha));
      lastTampered.set(loopId, { sha: snapshot.sha, files: tampered });
      return { snapshot, diff, tampered, policy: opts.evidence.onTamper };
    },
    rollback: async (loopId, sha, message) => rollbackTo((await prepare(loopId)).dir, sha, message),
    async patch(loopId) {
      if (existsSync(removedMarker(loopId))) {
        // The worktree is gone; the branch and the baseline are in the source repository.
        const source = opts.source(loopId);
        return diffPatch(source, baselineRef(loopId), `refs/heads/${loopBranch(loopId)}`);
      }
      const ws = await prepare(loopId);
      return diffPatch(ws.dir, ws.baselineSha, "HEAD");
    },
    async removeWorktree(loopId) {
      const ws = await prepare(loopId);
      if (ws.mode !== "worktree" || !ws.branch) {
        throw new Error(
          `the loop runs ${ws.mode === "init" ? "in its own repository" : "in place"}, not in a worktree`,
        );
      }
      await removeWorktree(ws.dir);
      writeFileSync(removedMarker(loopId), `${ws.branch}\n`);
      prepared.delete(loopId);
      return { dir: ws.dir, branch: ws.branch };
    },
    async currentSnapshot(loopId) {
      const ws = await prepare(loopId);
      return lastSnapshot.get(loopId) ?? (await git(ws.dir, ["rev-parse", "HEAD"])).trim();
    },
    gitTampering: (loopId) => [...(gitLinkSeen.get(loopId) ?? []), ...(gitLinkPending.get(loopId) ?? [])],
    async protectEvidence(loopId, extra = []) {
      const ws = await prepare(loopId);
      const globs = [...new Set([...opts.evidence.protectedPaths, ...extra])];
      if (globs.length === 0) return { tampered: [], policy: opts.evidence.onTamper, restored: false };
      const specs = pathspecs(globs);
      // Against the iteration's snapshot (what the agent left) and the files on disk now,
      // so every check of the iteration sees the tampering even after a restore.
      const snapshotSha = lastSnapshot.get(loopId) ?? "HEAD";
      const [committed, onDisk] = await Promise.all([
        git(ws.dir, ["diff", "--name-status", "--no-renames", "-z", ws.baselineSha, snapshotSha, "--", ...specs]),
        git(ws.dir, ["diff", "--name-status", "--no-renames", "-z", ws.baselineSha, "--", ...specs]),
      ]);
      const tampered = [...new Set([...changedNotAdded(committed), ...changedNotAdded(onDisk)])].sort();
      const now = changedNotAdded(onDisk);
      if (opts.evidence.onTamper === "restore" && now.length > 0) {
        await restorePaths(ws.dir, ws.baselineSha, now);
        // Committed on its own, so the next iteration's diff shows only what its agent changed.
        await commitStaged(
          ws.dir,
          `ralph: restore protected files for loop ${loopId} (${now.join(", ").slice(0, 200)})`,
        );
      }
      return {
        tampered,
        policy: opts.evidence.onTamper,
        restored: opts.evidence.onTamper === "restore" && tampered.length > 0,
      };
    },
  };
}

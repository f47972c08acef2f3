// What a per-iteration snapshot costs on a repository shaped like a real
// project (bench/real-repo.ts: 10,000 tracked files in deep folders, mixed
// sizes, a large ignored node_modules), through the product's own workspace
// code (commit, capped diff, tamper check), in which the agent changed 10
// files; beside a plain `git status` of the same worktree in the same state,
// interleaved so load hits both alike. Targets (issue 29): median < 150 ms
// and <= 1.5x `git status`. Also the first worktree's creation time (< 2 s).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { loopGitWorkspace } from "../server/agents/git/loop-workspace";
import { inheritedEnv } from "../server/env";
import { collectOutput } from "../server/agents/spawner";
import { makeRealShapedRepo } from "./real-repo";
import { percentile } from "./runtime-bench";

export interface SnapshotCost {
  files: number;
  folders: number;
  changed: number;
  p50: number;
  p95: number;
  statusP50: number;
  /** Median of each sample's snapshot / status ratio. */
  ratio: number;
  firstWorktreeMs: number;
}

/** `git status` as a user types it, started the way the snapshot's git commands are. */
async function plainStatus(dir: string) {
  const run = await collectOutput("git", ["status", "--porcelain"], {
    cwd: dir,
    env: inheritedEnv(["PATH", "HOME"]),
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.code !== 0) throw new Error(`git status failed: ${run.stderr}`);
}

export async function measureSnapshotCost(
  samples: number,
  files = 10_000,
  changed = 10,
  /** Folders the files are spread over (default: about 12 files a folder, bench/real-repo.ts). */
  folders?: number,
): Promise<SnapshotCost> {
  const root = mkdtempSync(join(tmpdir(), "ralph-snapshot-bench-"));
  // The loop's worktree lives under the data directory, outside the user's checkout.
  const data = mkdtempSync(join(tmpdir(), "ralph-snapshot-bench-data-"));
  try {
    const repo = makeRealShapedRepo(join(root, "repo"), { files, ...(folders ? { folders } : {}) });
    const loopId = "0192f3a4-5b6c-7d8e-9f00-000000bench0";
    const ws = loopGitWorkspace({
      source: () => repo.dir,
      isolation: "worktree",
      worktreesDir: data,
      evidence: { protectedPaths: ["**/*.test.*", "test/**"], onTamper: "restore" },
    });
    let t = performance.now();
    const dir = await ws.dir(loopId);
    const firstWorktreeMs = performance.now() - t;
    const targets = repo.tracked.filter((p) => p.endsWith(".ts")).slice(0, 500);
    const times: number[] = [];
    const status: number[] = [];
    const ratios: number[] = [];
    // Two warm-up rounds: the first snapshot writes the untracked cache into the worktree's index.
    for (let i = -2; i < samples; i++) {
      for (let c = 0; c < changed; c++) {
        writeFileSync(join(dir, targets[(i + 2) * 7 + c * 37]!), `// iteration ${i} change ${c}\n`);
      }
      t = performance.now();
      await plainStatus(dir);
      const s = performance.now() - t;
      t = performance.now();
      const snap = await ws.snapshot(loopId, i + 3);
      const ms = performance.now() - t;
      if (snap.snapshot.files.length !== changed)
        throw new Error(`expected ${changed} files, got ${snap.snapshot.files.length}`);
      if (i < 0) continue;
      times.push(ms);
      status.push(s);
      ratios.push(ms / s);
    }
    return {
      files,
      folders: new Set(repo.tracked.map((p) => dirname(p))).size,
      changed,
      p50: percentile(times, 50),
      p95: percentile(times, 95),
      statusP50: percentile(status, 50),
      ratio: percentile(ratios, 50),
      firstWorktreeMs,
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(data, { recursive: true, force: true });
  }
}

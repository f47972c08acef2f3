// Same-process A/B of ways to take the per-iteration snapshot on the
// real-shaped 10k-file repository (bench/real-repo.ts), 10 files changed per
// sample, interleaved so load hits every variant alike, beside `git status`
// and the cost of spawning git at all. It answers "which git steps does the
// snapshot pay, and does another sequence of commands pay less?":
//   current: status (untracked cache) -> update-index of the changed paths -> write-tree
//            -> commit-tree -> update-ref, the diff beside the commit (git-snapshot.ts)
//   add-all: `git add --all` instead of status + update-index (no untracked cache in add)
//   commit:  status -> update-index -> `git commit` (write-tree, commit, ref in one process) -> diff
// Measured 2026-11-28 on 2 cores, medians (ms). 8 samples at load 15-21: status 268 / 281,
// current 525 / 698, add-all 629, commit 772, a bare `git --version` 27-32. 3 samples at load 15-19:
// status 193, current 488, add-all 473, commit 441, spawn 21. No variant wins beyond the noise; the
// snapshot stays ~2.3-2.5x status: status's scan plus ~4 sequential git spawns (20-30 ms each loaded).
// Run: npx tsx bench/snapshot-variants.ts [samples]
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { git } from "../server/agents/git/git-cli";
import { workingTreeChanges } from "../server/agents/git/git-snapshot";
import { makeRealShapedRepo } from "./real-repo";
import { percentile } from "./runtime-bench";

const samples = Number(process.argv[2] ?? 8);
const root = mkdtempSync(join(tmpdir(), "ralph-snapshot-variants-"));
try {
  const repo = makeRealShapedRepo(join(root, "repo"), { files: 10_000 });
  const dir = repo.dir;
  await git(dir, ["update-index", "--index-version", "4"]);
  await git(dir, ["status", "--porcelain=v2", "-z", "--untracked-files=normal"]);
  const targets = repo.tracked.filter((p) => p.endsWith(".ts")).slice(0, 500);
  const times: Record<string, number[]> = { status: [], spawn: [], current: [], "add-all": [], commit: [] };
  let n = 0;
  const change = () => {
    for (let c = 0; c < 10; c++) writeFileSync(join(dir, targets[(n * 7 + c * 37) % 500]!), `// ${n} ${c}\n`);
    n++;
  };
  const time = async (key: string, f: () => Promise<unknown>) => {
    const t = performance.now();
    await f();
    times[key]!.push(performance.now() - t);
  };
  const diff = (from: string, to: string) => git(dir, ["diff", "--raw", "--numstat", "-p", "-M", "-z", from, to]);
  const stageChanged = async () => {
    const changes = await workingTreeChanges(dir);
    const input = changes.paths.map((p) => `${p}\0`).join("");
    await git(dir, ["update-index", "--add", "--remove", "-z", "--stdin"], { input });
    return changes.head!;
  };
  const commitTree = async (parent: string) => {
    const tree = (await git(dir, ["write-tree"])).trim();
    const commit = (async () => {
      const sha = (await git(dir, ["commit-tree", tree, "-p", parent, "-m", "x"])).trim();
      await git(dir, ["update-ref", "HEAD", sha, parent]);
    })();
    await Promise.all([commit, diff(parent, tree)]);
  };
  for (let i = 0; i < samples; i++) {
    change();
    await time("status", () => git(dir, ["status", "--porcelain"]));
    await time("spawn", () => git(dir, ["--version"]));
    await time("current", async () => commitTree(await stageChanged()));
    change();
    await time("add-all", async () => {
      const [parent] = await Promise.all([git(dir, ["rev-parse", "HEAD"]), git(dir, ["add", "--all", "--", "."])]);
      await commitTree(parent.trim());
    });
    change();
    await time("commit", async () => {
      const parent = await stageChanged();
      await git(dir, ["commit", "--no-verify", "--allow-empty", "--no-edit", "-q", "-m", "x"]);
      await diff(parent, "HEAD");
    });
  }
  for (const [key, list] of Object.entries(times)) {
    console.log(
      `${key.padEnd(8)} p50 ${percentile(list, 50).toFixed(1)}  (${list.map((x) => x.toFixed(0)).join(" ")})`,
    );
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}

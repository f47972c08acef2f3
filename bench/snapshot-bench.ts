// What a per-iteration snapshot costs: a repository of 10,000 files in which
// the agent changed 10, committed by the server (git add, commit, diffstat)
// as a child process. Target: under 150 ms median.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { prepareWorkspace, snapshotIteration } from "../server/agents/git/git-workspace";
import { percentile } from "./runtime-bench";

export async function measureSnapshotCost(samples: number, files = 10_000, changed = 10) {
  const root = mkdtempSync(join(tmpdir(), "ralph-snapshot-bench-"));
  // The loop's history lives under the data directory, outside the folder.
  const data = mkdtempSync(join(tmpdir(), "ralph-snapshot-bench-data-"));
  try {
    for (let d = 0; d < files / 100; d++) {
      mkdirSync(join(root, `dir${d}`));
      for (let f = 0; f < 100; f++) writeFileSync(join(root, `dir${d}`, `file${f}.ts`), `export const v${f} = ${d};\n`);
    }
    const loopId = "0192f3a4-5b6c-7d8e-9f00-000000bench0";
    const ws = await prepareWorkspace({ loopId, source: root, isolation: "worktree", worktreesDir: data });
    const times: number[] = [];
    for (let i = 1; i <= samples; i++) {
      for (let c = 0; c < changed; c++) writeFileSync(join(ws.dir, `dir${c * 7}`, `file${i % 100}.ts`), `// ${i}\n`);
      const started = performance.now();
      await snapshotIteration(ws.dir, loopId, i);
      times.push(performance.now() - started);
    }
    return { files, changed, p50: percentile(times, 50), p95: percentile(times, 95) };
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(data, { recursive: true, force: true });
  }
}

// kill -9 during a landing (issue 34, done-when 4), on SQLite and PostgreSQL, with real worker processes
// (scripts/worker.ts) landing a real branch in a real repository: one is killed in the middle of its rebase
// (git's rebase state on disk), the next in the middle of the evidence re-run; while they die, main is
// only ever at its old head. A third and a fourth worker start at once: exactly one lands it, once, and
// main moves from before to after in one step. Sampled every few ms, main is never anything else.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import { afterAll, afterEach, expect, it, vi } from "vitest";
import { describeEachProvider } from "../../test/db-providers";
import { tempRoot } from "../agents/fixtures/harness";
import { asOperator, waitFor } from "../../test/runtime-harness";
import { makeRepo, sh } from "../../test/landing-fixtures";
import { spawnWorker, stopWorker, type WorkerProcess } from "../../test/worker-process";
import { loopWithBranch, queueServices } from "../../test/landing-loop";
import { enqueueLanding } from "../loops/landing.service";
import { landingsOfLoop } from "../loops/landing-views";
import { landingWorktreeDir } from "./landing-runner";

const tmp = tempRoot("ralph-landing-crash-");
const dataDir = join(tmp.root, "data");
vi.stubEnv("RALPH_DATA_DIR", dataDir);
afterAll(() => tmp.cleanup());

const SLOW_TEST = `const test = require("node:test");\nconst assert = require("node:assert");\ntest("slow", async () => { await new Promise((r) => setTimeout(r, 2500)); assert.strictEqual(require("../src/done.js").done, true); });\n`;

describeEachProvider("landing survives kill -9", ({ db, kind, temp }) => {
  const workers: WorkerProcess[] = [];
  afterEach(async () => {
    for (const w of workers.splice(0)) await stopWorker(w, "SIGKILL");
  });
  const start = () => {
    const w = spawnWorker(
      temp().target,
      { RALPH_DATA_DIR: dataDir, RALPH_AGENT_SANDBOX: "off", RALPH_SWEEP_INTERVAL_MS: "200", RALPH_LEASE_MS: "1500" },
      { detached: true },
    );
    workers.push(w);
    return w;
  };
  const kill9 = async (w: WorkerProcess) => {
    process.kill(-w.child.pid!, "SIGKILL");
    await w.exited;
  };

  it("leaves main before or after, never between, and lands exactly once", async () => {
    const repo = makeRepo(join(tmp.root, `repo-${kind}`), {
      "package.json": JSON.stringify({ name: "p", private: true }),
      "src/done.js": "exports.done = false;\n",
      "test/slow.test.js": SLOW_TEST,
    });
    const svc = queueServices(db());
    const wt = join(tmp.root, `wt-${kind}`);
    const { id } = await loopWithBranch(db(), repo, wt, ["node", "--test", "test/slow.test.js"]);
    // The loop's branch as its iterations would have left it: many commits, so the rebase takes a while.
    execFileSync(
      "sh",
      [
        "-c",
        'for i in $(seq 1 250); do echo "$i" > "notes-$i.txt"; git add "notes-$i.txt"; git -c user.name=t -c user.email=t@t commit -q -m "iteration $i"; done; echo "exports.done = true;" > src/done.js; git add -A; git -c user.name=t -c user.email=t@t commit -q -m done',
      ],
      { cwd: wt },
    );
    // main moves on after the loop started, so landing replays every commit.
    const side = join(tmp.root, `side-${kind}`);
    sh(repo, "worktree", "add", "-q", side, "main");
    sh(side, "commit", "-q", "--allow-empty", "-m", "main moved");
    sh(repo, "worktree", "remove", side);
    const before = sh(repo, "rev-parse", "main");

    const seen = new Set<string>();
    const sampler = setInterval(() => seen.add(sh(repo, "rev-parse", "main")), 15);
    try {
      const entry = await enqueueLanding(svc, { loopId: id, actor: asOperator().actor, targetBranch: "main" });
      const rebaseState = async () => {
        const gitDir = join(repo, ".git", "worktrees");
        const dir = landingWorktreeDir(entry.queueId);
        return existsSync(dir) && existsSync(join(gitDir, dir.split("/").at(-1)!, "rebase-merge"));
      };
      // 1. Killed mid-rebase: git's rebase state is on disk when the worker dies.
      const w1 = start();
      await waitFor(rebaseState, (v) => v, 60_000);
      await kill9(w1);
      expect(await rebaseState()).toBe(true);
      expect(sh(repo, "rev-parse", "main")).toBe(before);
      // 2. Killed mid-check: the evidence re-run (baseline and graded runs of a slow test) is under way.
      const w2 = start();
      await waitFor(
        async () => (await landingsOfLoop(db().prisma, id))[0]!,
        (e) => e.status === "checking" && e.attempts === 2,
        60_000,
      );
      await new Promise((r) => setTimeout(r, 1500));
      await kill9(w2);
      expect(sh(repo, "rev-parse", "main")).toBe(before);
      expect((await landingsOfLoop(db().prisma, id))[0]!.status).toBe("checking");
      // 3. Two workers at once after the crashes: one takes the queue, rolls back and lands; once.
      start();
      start();
      const landed = await waitFor(
        async () => (await landingsOfLoop(db().prisma, id))[0]!,
        (e) => e.status === "landed" || e.status === "needs_review",
        120_000,
      );
      expect(landed.status).toBe("landed");
      expect(landed.attempts).toBe(3);
      const after = sh(repo, "rev-parse", "main");
      expect(after).toBe(landed.landedSha);
      expect(sh(repo, "rev-list", "--count", `${before}..${after}`)).toBe("251");
      expect(sh(repo, "show", "main:src/done.js")).toContain("true");
      const events = await db().prisma.loopEvent.findMany({ where: { loopId: id }, orderBy: { id: "asc" } });
      expect(events.filter((e) => e.type === "landing_landed")).toHaveLength(1);
      const starts = events.filter((e) => e.type === "landing_started");
      expect(starts.map((e) => (e.payload as { resumed: boolean }).resumed)).toEqual([false, true, true]);
      expect(starts[1]!.reason).toContain("stopped while rebasing");
      expect(starts[2]!.reason).toContain("stopped while checking");
      clearInterval(sampler);
      seen.add(sh(repo, "rev-parse", "main"));
      expect([...seen].sort()).toEqual([before, after].sort());
    } finally {
      clearInterval(sampler);
    }
  }, 300_000);
});

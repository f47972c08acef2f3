import { execFileSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { capDiff, diffPatch } from "./git-diff";
import {
  loopBranch,
  prepareWorkspace,
  removeWorktree,
  restorePaths,
  rollbackTo,
  snapshotIteration,
  tamperedPaths,
} from "./git-workspace";

const root = mkdtempSync(join(tmpdir(), "ralph-git-ws-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const sh = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd, encoding: "utf8" }).trim();

let n = 0;
function userRepo(): string {
  const dir = join(root, `repo-${++n}`);
  mkdirSync(join(dir, "test"), { recursive: true });
  sh(dir, "init", "-q", "-b", "main");
  writeFileSync(join(dir, "sum.js"), "module.exports = (a, b) => a - b;\n");
  writeFileSync(join(dir, "test", "sum.test.js"), "assert(sum(1, 2) === 3);\n");
  writeFileSync(join(dir, ".gitignore"), "node_modules/\n");
  sh(dir, "add", "-A");
  sh(dir, "commit", "-q", "-m", "user work");
  return dir;
}

const loopId = (tail: string) => `0192f3a4-5b6c-7d8e-9f00-0000${tail}`;
const PROTECTED = ["**/*.test.*", "test/**", "tests/**"];

describe("git workspaces", () => {
  it("two loops on one repository get their own worktree and branch; the user's checkout and HEAD are untouched", async () => {
    const repo = userRepo();
    writeFileSync(join(repo, "sum.js"), "// user's uncommitted edit\n");
    const headBefore = sh(repo, "rev-parse", "HEAD");
    const worktrees = join(root, "worktrees");
    const [a, b] = await Promise.all([
      prepareWorkspace({ loopId: loopId("aaaaaaaa"), source: repo, isolation: "worktree", worktreesDir: worktrees }),
      prepareWorkspace({ loopId: loopId("bbbbbbbb"), source: repo, isolation: "worktree", worktreesDir: worktrees }),
    ]).catch(async () =>
      // git serialises worktree creation with a lock; a clash is retried in sequence.
      [
        await prepareWorkspace({
          loopId: loopId("aaaaaaaa"),
          source: repo,
          isolation: "worktree",
          worktreesDir: worktrees,
        }),
        await prepareWorkspace({
          loopId: loopId("bbbbbbbb"),
          source: repo,
          isolation: "worktree",
          worktreesDir: worktrees,
        }),
      ],
    );
    expect(a.dir).not.toBe(b.dir);
    expect(a.branch).toBe(loopBranch(loopId("aaaaaaaa")));
    expect(b.branch).toBe("ralph/bbbbbbbb");
    expect(a.baselineSha).toBe(headBefore);
    writeFileSync(join(a.dir, "sum.js"), "module.exports = (a, b) => a + b;\n");
    writeFileSync(join(b.dir, "other.js"), "1\n");
    const snapA = await snapshotIteration(a.dir, loopId("aaaaaaaa"), 1);
    const snapB = await snapshotIteration(b.dir, loopId("bbbbbbbb"), 1);
    expect(snapA.files.map((f) => [f.path, f.status])).toEqual([["sum.js", "modified"]]);
    expect(snapB.files.map((f) => [f.path, f.status])).toEqual([["other.js", "added"]]);
    expect(sh(repo, "rev-parse", "HEAD")).toBe(headBefore);
    expect(sh(repo, "rev-parse", "--abbrev-ref", "HEAD")).toBe("main");
    expect(readFileSync(join(repo, "sum.js"), "utf8")).toBe("// user's uncommitted edit\n");
    // The loop's own index is version 4 (half the bytes each snapshot reads and writes); the user's keeps its version.
    const indexVersion = (file: string) => readFileSync(file).readUInt32BE(4);
    expect(indexVersion(join(sh(a.dir, "rev-parse", "--absolute-git-dir"), "index"))).toBe(4);
    expect(indexVersion(join(repo, ".git", "index"))).toBe(2);
    // Idempotent: the same loop finds its worktree again.
    const again = await prepareWorkspace({
      loopId: loopId("aaaaaaaa"),
      source: repo,
      isolation: "worktree",
      worktreesDir: worktrees,
    });
    expect(again).toEqual(a);
    await removeWorktree(a.dir);
    expect(existsSync(a.dir)).toBe(false);
    expect(sh(repo, "rev-parse", "ralph/aaaaaaaa")).toBe(snapA.sha);
  });

  it("a folder that is not a repository gets git init and a baseline commit of its files", async () => {
    const dir = join(root, "plain");
    mkdirSync(dir);
    writeFileSync(join(dir, "notes.txt"), "hello\n");
    const ws = await prepareWorkspace({
      loopId: loopId("cccccccc"),
      source: dir,
      isolation: "worktree",
      worktreesDir: root,
    });
    expect(ws.mode).toBe("init");
    expect(ws.dir).toBe(dir);
    expect(sh(dir, "show", "--name-only", "--format=", ws.baselineSha)).toBe("notes.txt");
    // The attempt after a crash finds the loop's own repository and reuses it.
    writeFileSync(join(dir, "notes.txt"), "changed\n");
    const again = await prepareWorkspace({
      loopId: loopId("cccccccc"),
      source: dir,
      isolation: "worktree",
      worktreesDir: root,
    });
    expect(again).toEqual(ws);
  });

  it("a crash during the first attempt's git init or commit leaves nothing the next attempt trips on", async () => {
    const id = loopId("dddddddd");
    const prepare = (source: string) =>
      prepareWorkspace({ loopId: id, source, isolation: "worktree", worktreesDir: root });
    // Killed after `git init`, before the baseline commit: HEAD is unborn.
    const unborn = join(root, "unborn");
    mkdirSync(unborn);
    writeFileSync(join(unborn, "notes.txt"), "hello\n");
    sh(unborn, "init", "--quiet", "-b", loopBranch(id));
    const ws = await prepare(unborn);
    expect(ws.mode).toBe("init");
    expect(sh(unborn, "show", "--name-only", "--format=", ws.baselineSha)).toBe("notes.txt");
    // Killed mid `git add`: its index.lock stays behind.
    writeFileSync(join(unborn, ".git", "index.lock"), "");
    expect(await prepare(unborn)).toEqual(ws);
    writeFileSync(join(unborn, "notes.txt"), "changed\n");
    const snap = await snapshotIteration(ws.dir, id, 1);
    expect(snap.files.map((f) => f.path)).toEqual(["notes.txt"]);
  });

  it("snapshot stats: added, modified, deleted, renamed, +/- lines, binary files named; ignored files left out", async () => {
    const repo = userRepo();
    const ws = await prepareWorkspace({
      loopId: loopId("dddddddd"),
      source: repo,
      isolation: "in-place",
      worktreesDir: root,
    });
    expect(ws.dir).toBe(repo);
    writeFileSync(join(repo, "sum.js"), "module.exports = (a, b) => a + b;\n// fixed\n");
    writeFileSync(join(repo, "img.bin"), Buffer.from([0, 1, 2, 0, 255]));
    mkdirSync(join(repo, "node_modules"));
    writeFileSync(join(repo, "node_modules", "x.js"), "ignored\n");
    sh(repo, "mv", "test/sum.test.js", "test/add.test.js");
    const snap = await snapshotIteration(repo, loopId("dddddddd"), 1);
    const byPath = Object.fromEntries(snap.files.map((f) => [f.path, f]));
    expect(byPath["sum.js"]).toMatchObject({ status: "modified", insertions: 2, deletions: 1 });
    expect(byPath["img.bin"]).toMatchObject({ status: "added", binary: true });
    expect(byPath["test/add.test.js"]).toMatchObject({ status: "renamed", from: "test/sum.test.js" });
    expect(byPath["node_modules/x.js"]).toBeUndefined();
    expect(snap.insertions).toBe(2);
    expect(sh(repo, "log", "-1", "--format=%s")).toBe(`ralph: loop ${loopId("dddddddd")} iteration 1`);
  });

  it("an agent that rewrites the test to print ok is caught; restore puts the real test back; new tests are allowed", async () => {
    const repo = userRepo();
    const ws = await prepareWorkspace({
      loopId: loopId("eeeeeeee"),
      source: repo,
      isolation: "worktree",
      worktreesDir: join(root, "wt2"),
    });
    writeFileSync(join(ws.dir, "test", "sum.test.js"), "console.log('ok')\n");
    writeFileSync(join(ws.dir, "test", "new.test.js"), "assert(true);\n");
    await snapshotIteration(ws.dir, loopId("eeeeeeee"), 1);
    const tampered = await tamperedPaths(ws.dir, ws.baselineSha, PROTECTED);
    expect(tampered).toEqual(["test/sum.test.js"]);
    await restorePaths(ws.dir, ws.baselineSha, tampered);
    expect(readFileSync(join(ws.dir, "test", "sum.test.js"), "utf8")).toBe("assert(sum(1, 2) === 3);\n");
    expect(await tamperedPaths(ws.dir, ws.baselineSha, PROTECTED)).toEqual([]);
    unlinkSync(join(ws.dir, "test", "sum.test.js"));
    expect(await tamperedPaths(ws.dir, ws.baselineSha, PROTECTED)).toEqual(["test/sum.test.js"]);
  });

  it("roll back returns the files to an iteration as a new commit; the patch against baseline shows the change", async () => {
    const repo = userRepo();
    const id = loopId("ffffffff");
    const ws = await prepareWorkspace({
      loopId: id,
      source: repo,
      isolation: "worktree",
      worktreesDir: join(root, "wt3"),
    });
    writeFileSync(join(ws.dir, "sum.js"), "module.exports = (a, b) => a + b;\n");
    const one = await snapshotIteration(ws.dir, id, 1);
    writeFileSync(join(ws.dir, "sum.js"), "broken\n");
    writeFileSync(join(ws.dir, "junk.js"), "junk\n");
    const two = await snapshotIteration(ws.dir, id, 2);
    const rolled = await rollbackTo(ws.dir, one.sha, "ralph: roll back to iteration 1 (tests broke)");
    expect(readFileSync(join(ws.dir, "sum.js"), "utf8")).toBe("module.exports = (a, b) => a + b;\n");
    expect(existsSync(join(ws.dir, "junk.js"))).toBe(false);
    expect(sh(ws.dir, "rev-list", "--count", `${ws.baselineSha}..HEAD`)).toBe("3");
    expect(sh(ws.dir, "rev-parse", "HEAD~1")).toBe(two.sha);
    expect(rolled).not.toBe(one.sha);
    const patch = await diffPatch(ws.dir, ws.baselineSha);
    expect(patch).toContain("-module.exports = (a, b) => a - b;");
    expect(patch).toContain("+module.exports = (a, b) => a + b;");
    // Fork from iteration 1: a new loop's worktree starts at that commit.
    const fork = await prepareWorkspace({
      loopId: loopId("abcdabcd"),
      source: repo,
      isolation: "worktree",
      worktreesDir: join(root, "wt3"),
      startAt: one.sha,
    });
    expect(fork.baselineSha).toBe(one.sha);
    expect(readFileSync(join(fork.dir, "sum.js"), "utf8")).toBe("module.exports = (a, b) => a + b;\n");
  });

  it("an iteration that changed nothing is HEAD itself (no commit); any change, untracked or not, is committed", async () => {
    const repo = userRepo();
    const id = loopId("0f0f0f0f");
    const ws = await prepareWorkspace({
      loopId: id,
      source: repo,
      isolation: "worktree",
      worktreesDir: join(root, "wt5"),
    });
    const head = sh(ws.dir, "rev-parse", "HEAD");
    mkdirSync(join(ws.dir, "node_modules"));
    writeFileSync(join(ws.dir, "node_modules", "x.js"), "ignored\n");
    const same = await snapshotIteration(ws.dir, id, 1);
    expect(same).toEqual({ sha: head, parentSha: head, files: [], insertions: 0, deletions: 0, patch: "" });
    expect(sh(ws.dir, "rev-parse", "HEAD")).toBe(head);
    mkdirSync(join(ws.dir, "deep", "er"), { recursive: true });
    writeFileSync(join(ws.dir, "deep", "er", "new.txt"), "new\n");
    const added = await snapshotIteration(ws.dir, id, 2);
    expect(added.parentSha).toBe(head);
    expect(added.sha).not.toBe(head);
    expect(added.files.map((f) => f.path)).toEqual(["deep/er/new.txt"]);
    // Staged but otherwise unchanged files count as a change too.
    writeFileSync(join(ws.dir, "sum.js"), "staged\n");
    sh(ws.dir, "add", "sum.js");
    const staged = await snapshotIteration(ws.dir, id, 3);
    expect(staged.parentSha).toBe(added.sha);
    expect(staged.files.map((f) => f.path)).toEqual(["sum.js"]);
    expect((await snapshotIteration(ws.dir, id, 4)).sha).toBe(staged.sha);
  });

  it("user hooks never run for snapshot commits", async () => {
    const repo = userRepo();
    const hook = join(repo, ".git", "hooks", "pre-commit");
    writeFileSync(hook, "#!/bin/sh\necho hooked > hooked.txt\nexit 1\n");
    chmodSync(hook, 0o755);
    const ws = await prepareWorkspace({
      loopId: loopId("12341234"),
      source: repo,
      isolation: "in-place",
      worktreesDir: root,
    });
    writeFileSync(join(repo, "a.txt"), "a\n");
    const snap = await snapshotIteration(ws.dir, loopId("12341234"), 1);
    expect(snap.files.map((f) => f.path)).toEqual(["a.txt"]);
    expect(existsSync(join(repo, "hooked.txt"))).toBe(false);
  });

  it("a diff over the cap is cut at a line end with a note; a short one is kept whole", () => {
    const diff = "+a\n".repeat(100);
    expect(capDiff(diff, 1000)).toEqual({ text: diff, truncated: false });
    const cut = capDiff(diff, 10);
    expect(cut.truncated).toBe(true);
    expect(cut.text).toBe("+a\n+a\n+a\n… [diff cut at 10 bytes of 300]\n");
  });

  it("a repository mid-merge is refused; a detached HEAD is refused in place but a worktree starts from it", async () => {
    const repo = userRepo();
    writeFileSync(join(repo, ".git", "MERGE_HEAD"), sh(repo, "rev-parse", "HEAD") + "\n");
    const opts = { source: repo, worktreesDir: join(root, "wt-bad") };
    await expect(prepareWorkspace({ ...opts, loopId: loopId("0000aaaa"), isolation: "worktree" })).rejects.toThrow(
      /in the middle of a merge/,
    );
    unlinkSync(join(repo, ".git", "MERGE_HEAD"));
    sh(repo, "checkout", "-q", "--detach");
    await expect(prepareWorkspace({ ...opts, loopId: loopId("0000bbbb"), isolation: "in-place" })).rejects.toThrow(
      /detached HEAD/,
    );
    const ws = await prepareWorkspace({ ...opts, loopId: loopId("0000cccc"), isolation: "worktree" });
    expect(ws.baselineSha).toBe(sh(repo, "rev-parse", "HEAD"));
  });
});

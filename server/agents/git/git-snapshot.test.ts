import { execFileSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diffPatch } from "./git-diff";
import { filesAndPatch, parseRawNumstat, snapshotIteration, workingTreeChanges } from "./git-snapshot";

const root = mkdtempSync(join(tmpdir(), "ralph-git-snap-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const sh = (cwd: string, args: string[], env: Record<string, string> = {}) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], {
    cwd,
    encoding: "utf8",
    // eslint-disable-next-line no-restricted-syntax -- a test's own git needs PATH and HOME
    env: { ...process.env, ...env },
  }).trim();

let n = 0;
function repo(): string {
  const dir = join(root, `r${++n}`);
  mkdirSync(join(dir, "src", "deep", "er"), { recursive: true });
  sh(dir, ["init", "-q", "-b", "main"]);
  writeFileSync(join(dir, ".gitignore"), "node_modules/\n*.log\nbuild/\n");
  writeFileSync(join(dir, "src", "a.ts"), "a\n");
  writeFileSync(join(dir, "src", "deep", "er", "b.ts"), "b\n");
  writeFileSync(join(dir, "gone.txt"), "gone\n");
  writeFileSync(join(dir, "moved.txt"), "moved\n");
  writeFileSync(join(dir, "tracked.log"), "tracked although ignored\n");
  sh(dir, ["add", "-A"]);
  sh(dir, ["add", "-f", "tracked.log"]);
  sh(dir, ["commit", "-q", "-m", "base"]);
  return dir;
}

/** The tree `git add --all` makes of the same files, through a throwaway index (the repository's own is not touched). */
function fullAddTree(dir: string): string {
  const index = join(root, `index-${n}-${Math.random().toString(36).slice(2)}`);
  copyFileSync(join(dir, ".git", "index"), index);
  sh(dir, ["read-tree", "HEAD~0"], { GIT_INDEX_FILE: index });
  sh(dir, ["add", "--all", "--", "."], { GIT_INDEX_FILE: index });
  return sh(dir, ["write-tree"], { GIT_INDEX_FILE: index });
}

describe("per-iteration snapshot: only what changed is staged", () => {
  it("commits exactly the tree `git add --all` would, for every kind of change an agent makes", async () => {
    const dir = repo();
    writeFileSync(join(dir, "src", "a.ts"), "a changed\n");
    unlinkSync(join(dir, "gone.txt"));
    sh(dir, ["mv", "moved.txt", "renamed.txt"]); // a staged rename, as an agent's own `git mv` (in place) leaves it
    mkdirSync(join(dir, "newpkg", "sub", "subsub"), { recursive: true });
    writeFileSync(join(dir, "newpkg", "sub", "subsub", "x.ts"), "x\n"); // a whole new folder: one status entry
    writeFileSync(join(dir, "newpkg", "debug.log"), "ignored inside a new folder\n");
    mkdirSync(join(dir, "build", "out"), { recursive: true });
    writeFileSync(join(dir, "build", "out", "bundle.js"), "ignored folder\n");
    writeFileSync(join(dir, "node_modules.txt"), "not the ignored folder\n");
    writeFileSync(join(dir, "[weird] *name?.md"), "glob characters are literal\n");
    writeFileSync(join(dir, "with space.txt"), "space\n");
    writeFileSync(join(dir, "tracked.log"), "tracked and ignored, changed\n");
    symlinkSync("src/a.ts", join(dir, "link-to-a"));
    const expected = fullAddTree(dir);

    const snap = await snapshotIteration(dir, "loop", 1);
    expect(sh(dir, ["rev-parse", `${snap.sha}^{tree}`])).toBe(expected);
    expect(sh(dir, ["rev-parse", "HEAD"])).toBe(snap.sha);
    expect((await workingTreeChanges(dir)).clean).toBe(true);
    const byPath = Object.fromEntries(snap.files.map((f) => [f.path, f]));
    expect(byPath["src/a.ts"]).toMatchObject({ status: "modified", insertions: 1, deletions: 1 });
    expect(byPath["gone.txt"]).toMatchObject({ status: "deleted" });
    expect(byPath["renamed.txt"]).toMatchObject({ status: "renamed", from: "moved.txt" });
    expect(byPath["newpkg/sub/subsub/x.ts"]).toMatchObject({ status: "added", insertions: 1 });
    expect(byPath["[weird] *name?.md"]).toMatchObject({ status: "added" });
    expect(Object.keys(byPath)).not.toContain("build/out/bundle.js");
    expect(Object.keys(byPath)).not.toContain("newpkg/debug.log");
    // The patch comes from the same git process as the file list: it is the unified diff `git diff` gives.
    expect(snap.patch).toBe(await diffPatch(dir, snap.parentSha, snap.sha));
    expect(snap.patch).toContain("rename from moved.txt");
  });

  it("files alone (no new folder) are staged by update-index, to the same tree", async () => {
    const dir = repo();
    writeFileSync(join(dir, "src", "deep", "er", "b.ts"), "b changed\n");
    unlinkSync(join(dir, "gone.txt"));
    writeFileSync(join(dir, "src", "new file [1].ts"), "new\n");
    writeFileSync(join(dir, "tracked.log"), "changed\n");
    writeFileSync(join(dir, "untracked.log"), "ignored\n");
    symlinkSync("a.ts", join(dir, "src", "link"));
    const changes = await workingTreeChanges(dir);
    expect(changes.paths.some((p) => p.endsWith("/"))).toBe(false);
    const expected = fullAddTree(dir);
    const snap = await snapshotIteration(dir, "loop", 1);
    expect(sh(dir, ["rev-parse", `${snap.sha}^{tree}`])).toBe(expected);
    expect(snap.files.map((f) => f.path).sort()).toEqual(
      ["gone.txt", "src/deep/er/b.ts", "src/link", "src/new file [1].ts", "tracked.log"].sort(),
    );
  });

  it("an unchanged tree is HEAD itself, and the work alongside is not started", async () => {
    const dir = repo();
    let called = false;
    const snap = await snapshotIteration(dir, "loop", 1, async () => {
      called = true;
    });
    expect(snap.sha).toBe(sh(dir, ["rev-parse", "HEAD"]));
    expect(snap.files).toEqual([]);
    expect(called).toBe(false);
  });

  it("reads raw and numstat records together, renames and binary files included", () => {
    const out = [
      ":100644 100644 aaa bbb M",
      "a.txt",
      ":100644 100644 ccc ccc R100",
      "b.txt",
      "c.txt",
      ":000000 100644 000 ddd A",
      "img.png",
      "2\t1\ta.txt",
      "0\t0\t",
      "b.txt",
      "c.txt",
      "-\t-\timg.png",
      "",
    ].join("\0");
    expect(parseRawNumstat(out)).toEqual([
      { path: "a.txt", status: "modified", insertions: 2, deletions: 1, binary: false },
      { path: "c.txt", status: "renamed", from: "b.txt", insertions: 0, deletions: 0, binary: false },
      { path: "img.png", status: "added", insertions: 0, deletions: 0, binary: true },
    ]);
  });

  it("reads the patch after the records, and a rename, a mode change and a binary file in one diff", async () => {
    const dir = repo();
    writeFileSync(join(dir, "img.bin"), Buffer.from([0, 1, 2]));
    sh(dir, ["add", "-A"]);
    sh(dir, ["commit", "-q", "-m", "binary"]);
    const parent = sh(dir, ["rev-parse", "HEAD"]);
    sh(dir, ["mv", "moved.txt", "renamed.txt"]);
    chmodSync(join(dir, "src", "a.ts"), 0o755);
    writeFileSync(join(dir, "img.bin"), Buffer.from([0, 3]));
    writeFileSync(join(dir, 'with\ttab "é".txt'), "odd name\n");
    const snap = await snapshotIteration(dir, "loop", 1);
    const both = await filesAndPatch(dir, parent, snap.sha);
    expect(both.patch).toBe(await diffPatch(dir, parent, snap.sha));
    expect(both.files).toEqual(snap.files);
    expect(Object.fromEntries(snap.files.map((f) => [f.path, [f.status, f.binary]]))).toEqual({
      "renamed.txt": ["renamed", false],
      "src/a.ts": ["modified", false],
      "img.bin": ["modified", true],
      'with\ttab "é".txt': ["added", false],
    });
  });
});

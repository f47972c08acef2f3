/**
 * Faults in preparing a loop's worktree environment, each in the real sandbox
 * on a real-shaped npm project: bad .worktreeinclude entries, a setup command
 * that fails, hangs, writes outside the worktree, dirties tracked files, or
 * meets a full disk. Each gives a clear error, the worktree is back at its
 * commit with nothing half-made, and the user's checkout is byte-identical.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkoutFingerprint, git, npmProject } from "../fixtures/real-projects";
import { tempRoot } from "../fixtures/harness";
import { hiddenPaths } from "../sandbox/isolation";
import { closeWarmSandboxes } from "../sandbox/warm-pool";
import { envSecretResolver } from "../secret-resolver";
import { workspaceSetupSchema } from "../workspace-setup.schema";
import { loopGitWorkspace } from "./loop-workspace";
import { prepareEnvironment } from "./workspace-environment";

const tmp = tempRoot("ralph-wt-faults-");
afterAll(() => tmp.cleanup(), 120_000);

const isolation = {
  mode: "on" as const,
  hidden: hiddenPaths(join(tmp.root, "data"), process.cwd()),
  homeRoot: join(tmp.root, "homes"),
  allowHosts: [],
};
let loops = 0;
const nextLoopId = () => `0192f3a4-5b6c-7d8e-9f00-0000000${String(++loops).padStart(5, "0")}`;

describe("bad entries and failing setups: a clear error, nothing half-made, the checkout untouched", () => {
  const prepareOnly = async (repo: string, setup?: string[], timeoutSeconds = 60) => {
    const loopId = nextLoopId();
    const worktreesDir = join(tmp.root, "worktrees", basename(repo));
    const gitWs = loopGitWorkspace({
      source: () => repo,
      isolation: "worktree",
      worktreesDir,
      evidence: { protectedPaths: [], onTamper: "restore" },
    });
    const ws = await gitWs.prepared(loopId);
    const error = await prepareEnvironment({
      loopId,
      ws,
      source: repo,
      setup: setup ? workspaceSetupSchema.parse({ argv: setup, timeoutSeconds }) : null,
      deps: { workspaceDir: () => ws.dir, secrets: envSecretResolver, isolation },
      stateDir: worktreesDir,
    }).then(
      () => null,
      (e: unknown) => (e instanceof Error ? e.message : String(e)),
    );
    // Back to the commit: no copied file, no half install, nothing untracked.
    expect(git(ws.dir, "status", "--porcelain", "--ignored", "--untracked-files=all")).toBe("");
    return error;
  };

  const cases: [string, (repo: string) => void, RegExp][] = [
    ["a tracked file", () => undefined, /"package\.json" is tracked by git/],
    ["a missing path", () => undefined, /"secrets\.json" does not exist/],
    ["a path outside the repository", () => undefined, /"\.\.\/elsewhere" points outside the repository/],
    [
      "a symlink out of the repository",
      (repo) => symlinkSync(tmp.root, join(repo, "outside")),
      /"outside" is a symlink leading out of the repository/,
    ],
    [
      "an untracked file git does not ignore",
      (repo) => writeFileSync(join(repo, "notes.txt"), "x"),
      /"notes\.txt" is not ignored by git/,
    ],
  ];
  const entries = ["package.json", "secrets.json", "../elsewhere", "outside", "notes.txt"];
  for (const [i, [what, arrange, message]] of cases.entries()) {
    it(`.worktreeinclude naming ${what}`, async () => {
      const repo = npmProject(tmp.root, `bad-include-${i}`, { include: ["node_modules", entries[i]!] });
      if (what.startsWith("a symlink")) {
        writeFileSync(join(repo, ".gitignore"), "node_modules/\n.env\noutside\n");
        git(repo, "commit", "-qam", "ignore outside");
      }
      arrange(repo);
      const before = checkoutFingerprint(repo);
      expect(await prepareOnly(repo)).toMatch(message);
      expect(checkoutFingerprint(repo)).toEqual(before);
    }, 60_000);
  }

  it("a setup that fails: the reason and its output, the worktree back to its commit", async () => {
    const repo = npmProject(tmp.root, "setup-fails", { include: ["node_modules"] });
    const before = checkoutFingerprint(repo);
    const error = await prepareOnly(repo, [
      "sh",
      "-c",
      "mkdir -p build && echo half > build/x && echo 'npm ERR! 404' >&2; exit 3",
    ]);
    expect(error).toMatch(/the setup command "sh -c .*" exited with 3 after .* s: .*npm ERR! 404/);
    expect(checkoutFingerprint(repo)).toEqual(before);
  }, 60_000);

  it("a setup that hangs is killed at its timeout", async () => {
    const repo = npmProject(tmp.root, "setup-hangs");
    const error = await prepareOnly(repo, ["sleep", "60"], 1);
    expect(error).toMatch(/did not finish within 1 s and was killed/);
  }, 60_000);

  it("a setup that writes outside the worktree is refused by the sandbox, and the checkout is untouched", async () => {
    const repo = npmProject(tmp.root, "setup-outside");
    const before = checkoutFingerprint(repo);
    // The user's checkout by its real path (under /tmp here, and read-only in the sandbox wherever it is).
    // A folder outside /tmp (the sandbox's /tmp is its own): read-only inside, like the rest of the system.
    const outside = mkdtempSync("/var/tmp/ralph-outside-");
    try {
      const error = await prepareOnly(repo, ["sh", "-c", `echo pwned > ${outside}/pwned.txt`]);
      expect(error).toMatch(/exited with \d+ .*(Read-only file system|Permission denied)/);
      expect(existsSync(join(outside, "pwned.txt"))).toBe(false);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
    expect(checkoutFingerprint(repo)).toEqual(before);
  }, 60_000);

  it("a setup that leaves files git would commit is refused: they would read as the agent's change", async () => {
    const repo = npmProject(tmp.root, "setup-dirty");
    expect(await prepareOnly(repo, ["sh", "-c", "echo changed >> package-lock.json"])).toMatch(
      /changed files git tracks or does not ignore \(package-lock\.json\)/,
    );
  }, 60_000);

  // A real full disk: a 2 MB tmpfs holds the worktrees (mounting needs root; skipped elsewhere).
  const fullDisk = (() => {
    try {
      const dir = mkdtempSync("/var/tmp/ralph-full-disk-");
      execFileSync("mount", ["-t", "tmpfs", "-o", "size=2m", "tmpfs", dir], { stdio: "ignore" });
      return dir;
    } catch {
      return null;
    }
  })();
  afterAll(() => {
    if (!fullDisk) return;
    // A warm sandbox kept for the next command holds its workspace (on this tmpfs) as its working folder.
    closeWarmSandboxes();
    execFileSync("umount", ["--lazy", fullDisk]);
    rmSync(fullDisk, { recursive: true, force: true });
  });

  it.runIf(fullDisk !== null)(
    "a full disk while copying .worktreeinclude or during the setup: said as such, nothing left",
    async () => {
      const attempt = async (name: string, include: boolean, setup?: string[]) => {
        const repo = npmProject(tmp.root, name, include ? { include: ["node_modules"] } : {});
        const before = checkoutFingerprint(repo);
        const loopId = nextLoopId();
        const worktreesDir = join(fullDisk!, name);
        const gitWs = loopGitWorkspace({
          source: () => repo,
          isolation: "worktree",
          worktreesDir,
          evidence: { protectedPaths: [], onTamper: "restore" },
        });
        const ws = await gitWs.prepared(loopId);
        const error = await prepareEnvironment({
          loopId,
          ws,
          source: repo,
          setup: setup ? workspaceSetupSchema.parse({ argv: setup, timeoutSeconds: 60 }) : null,
          deps: { workspaceDir: () => ws.dir, secrets: envSecretResolver, isolation },
          stateDir: worktreesDir,
        }).then(
          () => null,
          (e: unknown) => (e instanceof Error ? e.message : String(e)),
        );
        // Nothing half-copied or half-written stays, and the user's checkout is as it was.
        expect(git(ws.dir, "status", "--porcelain", "--ignored", "--untracked-files=all")).toBe("");
        expect(checkoutFingerprint(repo)).toEqual(before);
        return error;
      };
      expect(await attempt("full-disk-copy", true)).toMatch(
        /could not bring "node_modules" from \.worktreeinclude into the worktree: the disk is full/,
      );
      expect(await attempt("full-disk-setup", false, ["sh", "-c", "head -c 8000000 /dev/zero > big.bin"])).toMatch(
        /the setup command .* exited with 1 .*\(the disk is full\)/,
      );
    },
    120_000,
  );
});

/**
 * End to end on the engine, agent and checks in the real sandbox, on
 * repositories shaped like real projects (fixtures/real-projects.ts): the
 * loop's worktree gets what the project's tests need from .worktreeinclude
 * or the setup command, the real test runner scores iteration 1 right, the
 * loop completes when the agent fixes the code, and the user's checkout
 * (HEAD, index, every untracked and ignored file) is byte-identical after.
 * Bad entries, a failing or hanging setup, and a setup writing outside the
 * worktree each give a clear error and leave nothing behind.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  lstatSync,
  writeFileSync,
  symlinkSync,
} from "node:fs";
import { basename, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runLoop } from "../../engine";
import { commitAll, git, npmProject, pythonProject } from "../fixtures/real-projects";
import { realEngineDeps, tempRoot } from "../fixtures/harness";
import { createPorts } from "../registry";
import { hiddenPaths } from "../sandbox/isolation";
import { envSecretResolver } from "../secret-resolver";
import { workspaceSetupSchema } from "../workspace-setup.schema";
import { loopGitWorkspace } from "./loop-workspace";
import { prepareEnvironment } from "./workspace-environment";

const tmp = tempRoot("ralph-wt-env-");
afterAll(() => tmp.cleanup(), 120_000);

const isolation = {
  mode: "on" as const,
  hidden: hiddenPaths(join(tmp.root, "data"), process.cwd()),
  homeRoot: join(tmp.root, "homes"),
  allowHosts: [],
};
let loops = 0;
const nextLoopId = () => `0192f3a4-5b6c-7d8e-9f00-0000000${String(++loops).padStart(5, "0")}`;

/** HEAD, the index's bytes, and every file of the checkout outside .git (untracked and ignored ones included). */
function checkoutFingerprint(dir: string): Record<string, string> {
  const out: Record<string, string> = {
    HEAD: git(dir, "rev-parse", "HEAD"),
    "HEAD-ref": readFileSync(join(dir, ".git", "HEAD"), "utf8"),
    index: createHash("sha256")
      .update(readFileSync(join(dir, ".git", "index")))
      .digest("hex"),
  };
  const walk = (rel: string) => {
    for (const name of readdirSync(join(dir, rel))) {
      const path = rel ? `${rel}/${name}` : name;
      if (path === ".git") continue;
      const stat = lstatSync(join(dir, path));
      if (stat.isSymbolicLink()) out[path] = `-> ${readlinkSync(join(dir, path))}`;
      else if (stat.isDirectory()) walk(path);
      else
        out[path] = `${stat.mode.toString(8)} ${createHash("sha256")
          .update(readFileSync(join(dir, path)))
          .digest("hex")}`;
    }
  };
  walk("");
  return out;
}

async function runProjectLoop(opts: {
  repo: string;
  /** The loop's workspace when it is a folder inside the repository (default: the repository). */
  workspace?: string;
  check: Record<string, unknown>;
  setup?: string[];
  maxIterations?: number;
  startAt?: string;
}) {
  // The engine names the loop with its deps' first id: the worktree is made for that id.
  const loopId = opts.startAt ? "fork-1" : "id-1";
  const worktreesDir = join(tmp.root, "worktrees", `${basename(opts.repo)}${opts.startAt ? "-fork" : ""}`);
  const source = opts.workspace ?? opts.repo;
  const gitWs = loopGitWorkspace({
    source: () => source,
    isolation: "worktree",
    worktreesDir,
    evidence: { protectedPaths: ["test/**", "tests/**"], onTamper: "restore" },
    ...(opts.startAt ? { startAt: opts.startAt } : {}),
  });
  const deps = { workspaceDir: (id: string) => gitWs.dir(id), git: gitWs, secrets: envSecretResolver, isolation };
  // What createLoopPorts does before building the ports (server/loops/loop-environment.ts).
  const environment = await prepareEnvironment({
    loopId,
    ws: await gitWs.prepared(loopId),
    source,
    setup: opts.setup ? workspaceSetupSchema.parse({ argv: opts.setup, timeoutSeconds: 60 }) : null,
    deps,
    stateDir: worktreesDir,
  });
  const ports = createPorts(
    {
      agent: { kind: "command", argv: ["./agent.sh"], timeoutSeconds: 30 },
      scorers: [{ kind: "command-check", name: "tests", timeoutSeconds: 60, ...opts.check }],
      reflector: { kind: "rule-based" },
    },
    deps,
    loopId,
  );
  const result = await runLoop({
    goal: "Make the tests pass",
    config: {
      stop: { maxIterations: opts.maxIterations ?? 3, scoreThreshold: 1, noProgressIterations: 3 },
      completion: { evidence: ["score"] },
      retry: { maxAttempts: 1 },
    },
    ports,
    deps: {
      ...realEngineDeps(),
      newId: (
        (n = 0) =>
        () =>
          `${loopId.split("-")[0]}-${++n}`
      )(),
    },
  });
  return { result, environment, dir: (await gitWs.prepared(loopId)).dir, runDir: await gitWs.dir(loopId), loopId };
}

describe("the loop's worktree has what the checks need", () => {
  it("npm: node_modules from .worktreeinclude; mocha scores iteration 1 at 1/2, the loop completes at 2; the checkout is untouched", async () => {
    const repo = npmProject(tmp.root, "npm-include", { include: ["node_modules", ".env"] });
    const before = checkoutFingerprint(repo);
    const { result, environment, dir } = await runProjectLoop({ repo, check: { argv: ["npm", "test"] } });
    expect(environment.included).toEqual([".env", "node_modules"]);
    expect(result.records[0]!.scores.tests).toBe(0.5);
    expect(result.records[0]!.scoreReasons.tests).toContain("1/2 passed");
    expect(result.report.success).toBe(true);
    expect(result.iterations).toBe(2);
    // Copied, not linked: the worktree's files are other inodes than the checkout's.
    expect(lstatSync(join(dir, ".env")).ino).not.toBe(lstatSync(join(repo, ".env")).ino);
    expect(lstatSync(join(dir, "node_modules/mocha/package.json")).ino).not.toBe(
      lstatSync(join(repo, "node_modules/mocha/package.json")).ino,
    );
    // Never committed, never the agent's change: the iteration's snapshot is the fix alone.
    const snapshot = result.records[1]!.meta?.snapshot as { files: { path: string }[] };
    expect(snapshot.files.map((f) => f.path)).toEqual(["src/sum.js"]);
    expect(git(dir, "ls-files", "node_modules", ".env")).toBe("");
    expect(checkoutFingerprint(repo)).toEqual(before);
  }, 120_000);

  it("npm without node_modules in the worktree: the check says mocha is missing (the failure this fixes)", async () => {
    const repo = npmProject(tmp.root, "npm-bare");
    const { result } = await runProjectLoop({ repo, check: { argv: ["npm", "test"] }, maxIterations: 1 });
    expect(result.records[0]!.scores.tests).toBe(0);
    expect(result.report.success).toBe(false);
  }, 60_000);

  it("npm: the setup command prepares node_modules in the sandbox before iteration 1; the loop completes", async () => {
    // \`npm ci\` needs the registry; offline, the same shape: an install from packages committed in the project.
    const repo = npmProject(tmp.root, "npm-setup", { vendor: true });
    const before = checkoutFingerprint(repo);
    const { result, environment } = await runProjectLoop({
      repo,
      check: { argv: ["npm", "test"] },
      setup: [
        "sh",
        "-c",
        "cp -r vendor-modules node_modules && mkdir -p node_modules/.bin && ln -s ../mocha/bin/mocha.js node_modules/.bin/mocha",
      ],
    });
    expect(environment.setup?.exitCode).toBe(0);
    expect(readFileSync(environment.setup!.logPath, "utf8")).toContain("$ sh -c cp -r vendor-modules");
    expect(result.records[0]!.scores.tests).toBe(0.5);
    expect(result.report.success).toBe(true);
    expect(checkoutFingerprint(repo)).toEqual(before);
  }, 120_000);

  it("python: .venv from .worktreeinclude; pytest scores iteration 1 at 1/2, the loop completes at 2", async () => {
    const repo = pythonProject(tmp.root, "py-include", { include: [".venv"] });
    const before = checkoutFingerprint(repo);
    const { result } = await runProjectLoop({ repo, check: { argv: [".venv/bin/python", "-m", "pytest"] } });
    expect(result.records[0]!.scores.tests).toBe(0.5);
    expect(result.report.success).toBe(true);
    expect(result.iterations).toBe(2);
    expect(checkoutFingerprint(repo)).toEqual(before);
  }, 120_000);

  it("a fork's worktree (started at an iteration's commit) leaves the checkout byte-identical too", async () => {
    const repo = npmProject(tmp.root, "npm-fork", { include: ["node_modules"] });
    const first = await runProjectLoop({ repo, check: { argv: ["npm", "test"] }, maxIterations: 1 });
    const before = checkoutFingerprint(repo);
    const sha = (first.result.records[0]!.meta?.snapshot as { sha: string }).sha;
    const fork = await runProjectLoop({ repo, check: { argv: ["npm", "test"] }, startAt: sha });
    expect(fork.result.report.success).toBe(true);
    expect(checkoutFingerprint(repo)).toEqual(before);
  }, 120_000);
});

describe("monorepos and submodules", () => {
  it("a package of a monorepo: agent and check run in its folder of the worktree; the loop completes", async () => {
    const repo = join(tmp.root, "mono");
    const pkg = npmProject(join(repo, "packages"), "app", { noGit: true });
    writeFileSync(join(repo, "README.md"), "a monorepo\n");
    writeFileSync(join(repo, ".worktreeinclude"), "packages/app/node_modules\n");
    commitAll(repo);
    const before = checkoutFingerprint(repo);
    const { result, dir, runDir } = await runProjectLoop({ repo, workspace: pkg, check: { argv: ["npm", "test"] } });
    expect(runDir).toBe(join(dir, "packages", "app"));
    expect(result.records[0]!.scores.tests).toBe(0.5);
    expect(result.report.success).toBe(true);
    const snapshot = result.records[1]!.meta?.snapshot as { files: { path: string }[] };
    expect(snapshot.files.map((f) => f.path)).toEqual(["packages/app/src/sum.js"]);
    expect(checkoutFingerprint(repo)).toEqual(before);
  }, 120_000);

  const withSubmodule = (name: string) => {
    const lib = join(tmp.root, `${name}-lib`);
    mkdirSync(lib, { recursive: true });
    writeFileSync(join(lib, "lib.txt"), "from the submodule\n");
    commitAll(lib);
    const repo = npmProject(tmp.root, name, { include: ["node_modules"] });
    git(repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "vendor/lib");
    git(repo, "commit", "-qm", "add the submodule");
    return repo;
  };

  it("submodules are initialised in the worktree from the user's checkout; the checkout and its config stay as they were", async () => {
    const repo = withSubmodule("with-sub");
    const before = { ...checkoutFingerprint(repo), config: readFileSync(join(repo, ".git", "config"), "utf8") };
    const { result, environment, dir } = await runProjectLoop({ repo, check: { argv: ["npm", "test"] } });
    expect(environment.submodules).toEqual(["vendor/lib"]);
    expect(readFileSync(join(dir, "vendor", "lib", "lib.txt"), "utf8")).toBe("from the submodule\n");
    expect(result.report.success).toBe(true);
    expect({ ...checkoutFingerprint(repo), config: readFileSync(join(repo, ".git", "config"), "utf8") }).toEqual(
      before,
    );
  }, 120_000);

  it("a submodule the user has not initialised either is refused, saying how to fix it", async () => {
    const upstream = withSubmodule("sub-upstream");
    const repo = join(tmp.root, "sub-clone");
    git(tmp.root, "clone", "-q", upstream, repo);
    const loopId = nextLoopId();
    const worktreesDir = join(tmp.root, "worktrees", "sub-clone");
    const gitWs = loopGitWorkspace({
      source: () => repo,
      isolation: "worktree",
      worktreesDir,
      evidence: { protectedPaths: [], onTamper: "restore" },
    });
    const ws = await gitWs.prepared(loopId);
    await expect(
      prepareEnvironment({
        loopId,
        ws,
        source: repo,
        setup: null,
        deps: { workspaceDir: () => ws.dir, secrets: envSecretResolver, isolation },
        stateDir: worktreesDir,
      }),
    ).rejects.toThrow(
      /the submodule "vendor\/lib" is not initialised in your checkout.*git submodule update --init vendor\/lib/,
    );
  }, 60_000);
});

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
    execFileSync("umount", [fullDisk]);
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

/**
 * End to end on the engine, agent and checks in the real sandbox, on
 * repositories shaped like real projects (fixtures/real-projects.ts): the
 * loop's worktree gets what the project's tests need from .worktreeinclude
 * or the setup command, the real test runner scores iteration 1 right, the
 * loop completes when the agent fixes the code, and the user's checkout
 * (HEAD, index, every untracked and ignored file) is byte-identical after.
 * Monorepo packages and submodules too. Faults: worktree-environment-faults.e2e.test.ts.
 */
import { lstatSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runLoop } from "../../engine";
import { checkoutFingerprint, commitAll, git, npmProject, pythonProject } from "../fixtures/real-projects";
import { realEngineDeps, snapshotOf, tempRoot } from "../fixtures/harness";
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
    const snapshot = snapshotOf(result.records[1]!).snapshot;
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
    const sha = snapshotOf(first.result.records[0]!).snapshot.sha;
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
    const snapshot = snapshotOf(result.records[1]!).snapshot;
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

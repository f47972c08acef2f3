// A loop in the default worktree mode on projects shaped like real ones,
// through the product's own runtime (`ralph run`: createLoopPorts, the slice
// runner, the real sandbox): an npm package whose node_modules is untracked
// gets it from .worktreeinclude, mocha scores iteration 1 at 1/2 and the loop
// completes when the agent fixes the code; "Test the check now" and the
// preflight's run give that same first verdict, in a worktree prepared like
// the loop's, for it and for a pytest project with a .venv; a failing setup
// command stops the loop before iteration 1 with its output as the reason.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import { ralph } from "../test/cli-app";
import { npmProject, pythonProject } from "../server/agents/fixtures/real-projects";
import { LOCAL_OPERATOR } from "../server/auth/actor";
import { openDatabase, type Database } from "../server/db/client";
import { runCheckOnce } from "../server/loops/check-preview.service";
import { loopDefinitionSchema } from "../server/loops/loop-definition";
import { preflightDefinition } from "../server/loops/loop-preflight.service";
import { runPreflightChecks } from "../server/loops/preflight-run.service";
import { loopEnvironmentOf } from "../server/loops/loop-environment.service";
import { EXIT } from "./exit-codes";

// `ralph run` keeps its data in <folder>/data; "Test the check now" and the loop page's reads run in this
// process (getEnv reads these on first use) with the same data folder. The projects' folder is one an
// operator may choose.
const folder = mkdtempSync(join(tmpdir(), "ralph-run-wt-"));
vi.stubEnv("RALPH_DATA_DIR", join(folder, "data"));
vi.stubEnv("RALPH_WORKSPACE_ROOTS", tmpdir());

const operator = { actor: { ...LOCAL_OPERATOR, role: "operator" as const }, reason: null };

describe("loops on real-shaped projects, in their worktree [sqlite]", () => {
  // Beside the run's folder (either works: the app folder is where the `ralph` bin lives, server/app-dir.ts).
  let projects: string;
  let db: Database | undefined;
  const database = () =>
    (db ??= openDatabase({
      kind: "sqlite",
      url: `file:${join(folder, "data/ralph.db")}`,
      file: join(folder, "data/ralph.db"),
    }));
  const run = (name: string, definition: object) => {
    writeFileSync(join(folder, name), JSON.stringify(definition));
    return ralph(["run", "-f", name, "--json"], { cwd: folder, env: {}, timeoutMs: 240_000 });
  };
  const definition = (workspace: string, check: string[], extra: object = {}) => ({
    goal: "Make the tests pass",
    workspace,
    agent: { kind: "command", argv: ["./agent.sh"], timeoutSeconds: 60 },
    scorers: [{ kind: "command-check", name: "tests", argv: check, timeoutSeconds: 120 }],
    loop: { stop: { maxIterations: 3, scoreThreshold: 1 }, completion: { evidence: ["score"] } },
    ...extra,
  });
  /** The loop's iterations as stored: number and the tests check's score. */
  const scores = async (loopId: string) =>
    (await database().prisma.iteration.findMany({ where: { loopId }, orderBy: { number: "asc" } })).map((i) => ({
      number: i.number,
      tests: (i.scores as Record<string, { score: number }> | null)?.tests?.score ?? null,
    }));

  beforeAll(() => {
    projects = mkdtempSync(join(tmpdir(), "ralph-wt-projects-"));
  });
  afterAll(async () => {
    await db?.close();
    rmSync(folder, { recursive: true, force: true });
    rmSync(projects, { recursive: true, force: true });
  }, 120_000);

  it("npm, node_modules from .worktreeinclude: the loop scores mocha right at 1 and completes at 2; the form and the preflight say the same", async () => {
    const repo = npmProject(projects, "npm-app", { include: ["node_modules", ".env"] });
    const def = definition(repo, ["npm", "test"]);
    const preview = await runCheckOnce(database(), { workspace: repo, check: def.scorers[0] }, operator);
    const preflight = await runPreflightChecks(database(), loopDefinitionSchema.parse(def), operator);
    const done = await run("npm.json", def);
    expect(done.code).toBe(EXIT.completed);
    const final = JSON.parse(done.stdout) as { id: string; status: string; iteration: number };
    expect(final).toMatchObject({ status: "completed", iteration: 2 });
    const [first] = await scores(final.id);
    expect(first).toEqual({ number: 1, tests: 0.5 });
    expect(await loopEnvironmentOf(database(), final.id)).toMatchObject({
      status: "ready",
      included: [".env", "node_modules"],
      setup: null,
    });
    // The same verdict, from the same place.
    expect(preview).toMatchObject({ score: 0.5, ranIn: "worktree" });
    expect(preview.reason).toContain("1/2 passed");
    expect(preview.note).toContain("copied .env, node_modules from .worktreeinclude");
    expect(preflight.ranIn).toBe("worktree");
    expect(preflight.checks).toEqual([expect.objectContaining({ status: "ok", score: 0.5 })]);
  }, 300_000);

  it("pytest with a .venv: the form, the preflight and the loop's first check agree", async () => {
    const repo = pythonProject(projects, "py-app", { include: [".venv"] });
    const def = definition(repo, [".venv/bin/python", "-m", "pytest"], {
      loop: { stop: { maxIterations: 1, scoreThreshold: 1 }, completion: { evidence: ["score"] } },
    });
    const preview = await runCheckOnce(database(), { workspace: repo, check: def.scorers[0] }, operator);
    const preflight = await runPreflightChecks(database(), loopDefinitionSchema.parse(def), operator);
    const done = await run("py.json", def);
    const final = JSON.parse(done.stdout) as { id: string };
    const [first] = await scores(final.id);
    expect(first).toEqual({ number: 1, tests: 0.5 });
    expect(preview).toMatchObject({ score: 0.5, ranIn: "worktree" });
    expect(preflight.checks).toEqual([expect.objectContaining({ status: "ok", score: 0.5 })]);
  }, 300_000);

  it("without .worktreeinclude or setup: the preflight proposes them, and its run says the check cannot count a test there", async () => {
    const repo = npmProject(projects, "npm-bare");
    const def = loopDefinitionSchema.parse(definition(repo, ["npm", "test"]));
    const { checks } = await preflightDefinition(database(), def, operator);
    expect(checks).toContainEqual(
      expect.objectContaining({
        label: "Worktree environment",
        status: "unknown",
        proposal: { worktreeinclude: ["node_modules"], setup: ["npm", "ci"] },
      }),
    );
    const ran = await runPreflightChecks(database(), def, operator);
    expect(ran.ok).toBe(false);
    expect(ran.checks[0]).toMatchObject({ status: "problem", score: 0 });
    expect(ran.checks[0]!.message).toMatch(/mocha: not found/);
  }, 300_000);

  it("a setup command that fails stops the loop before iteration 1, with its output as the reason", async () => {
    const repo = npmProject(projects, "npm-setup-fails", { include: ["node_modules"] });
    const done = await run(
      "setup-fails.json",
      definition(repo, ["npm", "test"], {
        setup: { argv: ["sh", "-c", "echo 'npm ERR! code E404' >&2; exit 1"] },
      }),
    );
    const final = JSON.parse(done.stdout) as { id: string; iteration: number; stopReason: string };
    expect(final.iteration).toBe(0);
    expect(final.stopReason).toMatch(/the setup command "sh -c .*" exited with 1 .*npm ERR! code E404/);
    expect(await scores(final.id)).toEqual([]);
    // The loop page: the setup failed, with its log.
    const env = await loopEnvironmentOf(database(), final.id);
    expect(env).toMatchObject({ status: "failed", setup: { argv: ["sh", "-c", expect.any(String)] } });
    expect(env.setup!.logTail).toContain("npm ERR! code E404");
  }, 300_000);
});

/**
 * The command check against real runners: each sample project (4 pass, 3
 * fail, 1 skipped) must score exactly 4/7 in its default invocation and in
 * every report mode, with the three failures named and the special
 * characters and the unicode name intact.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScoreResult } from "../../engine";
import { tempRoot, testDeps } from "../fixtures/harness";
import { copyProject, hasCargo, hasGo, pythonWithPytest, requireToolchain } from "../fixtures/runner-projects";
import { runCommandCheck } from "../command-check.scorer";
import { commandCheckScorerSchema } from "../scorer.schema";

const SPECIAL = `<a href="x">&amp; 'q'</a> > 5 & "ok"`;
const tmp = tempRoot("ralph-runners-");
afterAll(() => tmp.cleanup());

interface Case {
  mode: string;
  argv: string[];
  runner?: string;
  format?: string;
  reportFile?: string;
  /** Where the runner's output shortens messages (pytest's summary), the full text is not expected. */
  fullMessage?: boolean;
}

const python = pythonWithPytest();
const table: string[] = [];
afterAll(() => console.log(`\n${["| project | mode | score | format |", "|---|---|---|---|", ...table].join("\n")}\n`));

function suite(project: string, present: boolean, cases: Case[]) {
  describe.skipIf(!present)(project, () => {
    let dir = "";
    beforeAll(() => {
      dir = copyProject(project, tmp.root);
    });
    it.each(cases.map((c) => [c.mode, c] as const))(
      "%s → 4/7 with the failures named",
      async (_mode, c) => {
        const config = commandCheckScorerSchema.parse({
          kind: "command-check",
          argv: c.argv,
          runner: c.runner ?? "auto",
          format: c.format ?? "auto",
          ...(c.reportFile ? { reportFile: c.reportFile } : {}),
          timeoutSeconds: 240,
        });
        const result: ScoreResult = await runCommandCheck(config, testDeps(dir), {
          loopId: "check",
          workspace: dir,
          extraEnv: {},
        });
        table.push(`| ${project} | ${c.mode} | ${result.score.toFixed(3)} | ${result.tests?.format} |`);
        const tests = result.tests!;
        expect({ score: result.score, reason: result.reason }).toEqual({ score: 4 / 7, reason: expect.any(String) });
        expect(tests).toMatchObject({ passed: 4, failed: 3, skipped: 1, errored: 0, counted: true, moreFailures: 0 });
        const names = tests.failures.map((f) => f.name);
        expect(names).toHaveLength(3);
        expect(names.some((n) => /plain[ _]?failure/i.test(n))).toBe(true);
        expect(names.some((n) => /[üÜ]nïcödé[ _]?名前/.test(n))).toBe(true);
        const special = tests.failures.find((f) => /special[ _]?chars/i.test(f.name));
        expect(special).toBeDefined();
        if (c.fullMessage !== false) expect(special!.message).toContain(SPECIAL);
      },
      300_000,
    );
  });
}

const none = "none";

for (const project of ["node-test-flat", "node-test-nested"]) {
  suite(project, true, [
    { mode: "npm test (auto)", argv: ["npm", "test"] },
    { mode: "node --test (auto)", argv: ["node", "--test"] },
    { mode: "node --test, TAP on stdout", argv: ["node", "--test"], runner: none },
    { mode: "node --test --test-reporter=spec", argv: ["node", "--test", "--test-reporter=spec"], runner: none },
    { mode: "node --test --test-reporter=junit", argv: ["node", "--test", "--test-reporter=junit"] },
  ]);
}

suite("vitest", true, [
  { mode: "npm test (auto)", argv: ["npm", "test"] },
  { mode: "vitest run (auto)", argv: ["npx", "vitest", "run"] },
  { mode: "vitest run, default output", argv: ["npx", "vitest", "run"], runner: none },
  { mode: "--reporter=json", argv: ["npx", "vitest", "run", "--reporter=json"], runner: none },
  { mode: "--reporter=junit", argv: ["npx", "vitest", "run", "--reporter=junit"], runner: none },
  { mode: "--reporter=tap", argv: ["npx", "vitest", "run", "--reporter=tap"], runner: none },
  { mode: "--reporter=tap-flat", argv: ["npx", "vitest", "run", "--reporter=tap-flat"], runner: none },
  { mode: "--coverage --reporter=json", argv: ["npx", "vitest", "run", "--coverage", "--reporter=json"], runner: none },
  { mode: "--coverage --reporter=json (auto)", argv: ["npx", "vitest", "run", "--coverage", "--reporter=json"] },
]);

suite("jest", true, [
  { mode: "npm test (auto)", argv: ["npm", "test"] },
  { mode: "jest, default output", argv: ["npx", "jest"], runner: none },
  { mode: "jest --json", argv: ["npx", "jest", "--json"], runner: none },
  { mode: "--testFailureExitCode=0, default output", argv: ["npx", "jest", "--testFailureExitCode=0"], runner: none },
  { mode: "--testFailureExitCode=0 (auto)", argv: ["npx", "jest", "--testFailureExitCode=0"] },
]);

suite("mocha", true, [
  { mode: "npm test (auto)", argv: ["npm", "test"] },
  { mode: "mocha, spec output", argv: ["npx", "mocha"], runner: none },
  { mode: "--reporter tap", argv: ["npx", "mocha", "--reporter", "tap"], runner: none },
  // Auto mode reads its own JSON file, not the TAP on stdout a test's own "ok" lines could inflate.
  { mode: "--reporter tap (auto)", argv: ["npx", "mocha", "--reporter", "tap"] },
  { mode: "--reporter xunit", argv: ["npx", "mocha", "--reporter", "xunit"], runner: none },
  { mode: "--reporter json", argv: ["npx", "mocha", "--reporter", "json"], runner: none },
  { mode: "--reporter xunit (auto)", argv: ["npx", "mocha", "--reporter", "xunit"] },
]);

suite("pytest", requireToolchain("pytest", python !== null), [
  { mode: "python -m pytest (auto)", argv: [python ?? "python3", "-m", "pytest"] },
  ...(python === "python3" ? [{ mode: "npm test, as the templates run it (auto)", argv: ["npm", "test"] }] : []),
  {
    mode: "python -m pytest, default output",
    argv: [python ?? "python3", "-m", "pytest"],
    runner: none,
    fullMessage: false,
  },
  {
    mode: "--junitxml + reportFile",
    argv: [python ?? "python3", "-m", "pytest", "--junitxml=report.xml"],
    reportFile: "report.xml",
  },
]);

suite("go", requireToolchain("go", hasGo()), [
  { mode: "go test ./... (auto)", argv: ["go", "test", "./..."] },
  { mode: "npm test, as the templates run it (auto)", argv: ["npm", "test"] },
  { mode: "go test -json", argv: ["go", "test", "-json", "./..."], runner: none },
  { mode: "go test -v, default output", argv: ["go", "test", "-v", "./..."], runner: none },
]);

suite("cargo", requireToolchain("cargo", hasCargo()), [
  { mode: "cargo test (auto)", argv: ["cargo", "test"] },
  { mode: "npm test, as the templates run it (auto)", argv: ["npm", "test"] },
  { mode: "cargo test, default output", argv: ["cargo", "test"], runner: none },
]);

/**
 * The command check against runners that misbehave: a test file that does
 * not compile (the runner crashes before running tests), a coverage
 * threshold that fails a green suite, and a runner told to exit 0 on failure.
 */
import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempRoot, testDeps } from "../fixtures/harness";
import { copyProject, hasCargo, hasGo, pythonWithPytest } from "../fixtures/runner-projects";
import { runCommandCheck } from "../command-check.scorer";
import { commandCheckScorerSchema } from "../scorer.schema";

const tmp = tempRoot("ralph-edge-");
afterAll(() => tmp.cleanup());

const run = (dir: string, argv: string[], runner = "auto") =>
  runCommandCheck(
    commandCheckScorerSchema.parse({ kind: "command-check", argv, runner, timeoutSeconds: 240 }),
    testDeps(dir),
    { loopId: "check", workspace: dir, extraEnv: {} },
  );

const python = pythonWithPytest();

const crashes = [
  {
    project: "node-test-nested",
    file: "sample.test.js",
    broken: "it('broken', () => { const = ; });",
    argv: ["npm", "test"],
    says: /SyntaxError/,
  },
  {
    project: "vitest",
    file: "sample.spec.js",
    broken: "it('broken', () => { const = ; });",
    argv: ["npm", "test"],
    says: /Parse failure|SyntaxError|Unexpected token/,
  },
  {
    project: "jest",
    file: "sample.spec.js",
    broken: "it('broken', () => { const = ; });",
    argv: ["npm", "test"],
    says: /SyntaxError|Unexpected token|failed to parse/,
  },
  {
    project: "mocha",
    file: "test/sample.spec.js",
    broken: "it('broken', () => { const = ; });",
    argv: ["npm", "test"],
    says: /SyntaxError/,
  },
  ...(python
    ? [
        {
          project: "pytest",
          file: "tests/test_sample.py",
          broken: "def broken(:",
          argv: [python, "-m", "pytest"],
          says: /SyntaxError/,
        },
      ]
    : []),
  ...(hasGo()
    ? [
        {
          project: "go",
          file: "sample_test.go",
          broken: "func Broken( {",
          argv: ["go", "test", "./..."],
          says: /expected|syntax error/,
        },
      ]
    : []),
  ...(hasCargo()
    ? [
        {
          project: "cargo",
          file: "src/lib.rs",
          broken: "fn broken( {",
          argv: ["cargo", "test"],
          says: /unclosed delimiter|error/,
        },
      ]
    : []),
];

describe("a runner that crashes before running tests", () => {
  it.each(crashes.map((c) => [c.project, c] as const))(
    "%s: scores 0 and shows the error",
    async (_name, c) => {
      const dir = copyProject(c.project, tmp.root, `${c.project}-crash`);
      appendFileSync(join(dir, c.file), `\n${c.broken}\n`);
      const result = await run(dir, c.argv);
      expect(result.score).toBe(0);
      const shown = [
        result.reason,
        result.tests!.error ?? "",
        ...result.tests!.failures.map((f) => f.message ?? ""),
      ].join("\n");
      expect(shown).toMatch(c.says);
    },
    240_000,
  );
});

describe("the exit code and the counts disagree", () => {
  it("a coverage threshold failing a green suite: not 1, and the reason says why", async () => {
    const dir = copyProject("vitest", tmp.root, "vitest-coverage");
    writeFileSync(join(dir, "lib.js"), "export const used = () => 1;\nexport function unused() {\n  return 2;\n}\n");
    writeFileSync(
      join(dir, "sample.spec.js"),
      'import { expect, it } from "vitest";\nimport { used } from "./lib.js";\nit("uses it", () => expect(used()).toBe(1));\nit("still passes", () => expect(2).toBe(2));\n',
    );
    const argv = ["npx", "vitest", "run", "--coverage", "--coverage.include=lib.js", "--coverage.thresholds.lines=100"];
    const result = await run(dir, argv);
    expect(result.score).toBeLessThan(1);
    expect(result.score).toBe(2 / 3);
    expect(result.reason).toMatch(
      /^2\/2 tests passed, but exit 1: .*[Cc]overage.*threshold.*; not a pass \(vitest json\)$/,
    );
    expect(result.tests).toMatchObject({ passed: 2, failed: 0, errored: 1, counted: true });
    expect(result.tests!.error).toMatch(/[Cc]overage/);
  }, 240_000);

  it("jest --testFailureExitCode=0 with failures scores by the counts, with a warning", async () => {
    const dir = copyProject("jest", tmp.root, "jest-exit0");
    for (const runner of ["auto", "none"]) {
      const result = await run(dir, ["npx", "jest", "--testFailureExitCode=0"], runner);
      expect(result.score).toBe(4 / 7);
      expect(result.tests!.exitCode).toBe(0);
      expect(result.tests!.warnings).toContain("the command exited 0 although 3 tests failed: scored by the counts");
    }
  }, 240_000);
});

describe.skipIf(!hasGo())("go test without -v", () => {
  it("names the failures but counts nothing: it prints no passing tests", async () => {
    const dir = copyProject("go", tmp.root, "go-plain");
    const result = await run(dir, ["go", "test", "./..."], "none");
    expect(result.score).toBe(0);
    expect(result.tests).toMatchObject({ counted: false, format: "summary" });
    expect(result.tests!.failures.map((f) => f.name)).toEqual([
      "TestEdgeCases/plain_failure",
      "TestÜnïcödé名前Fails",
      "TestSpecialCharsInTheMessage",
    ]);
  }, 120_000);
});

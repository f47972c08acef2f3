/**
 * Real runners with output past the 1 MB stdout cap: 10,000 node:test tests
 * (about 1.3 MB of TAP) must score exactly, whether the report is a file or
 * the capped stdout stream, and a loop whose tests all pass must complete.
 * A JSON report cut at the cap must never yield a partial score.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runLoop } from "../../engine";
import { fixture, realEngineDeps, tempRoot, testDeps } from "../fixtures/harness";
import { createPorts } from "../registry";
import { runCommandCheck } from "../command-check.scorer";
import { commandCheckScorerSchema } from "../scorer.schema";

const tmp = tempRoot("ralph-large-");
afterAll(() => tmp.cleanup());

const TESTS = 10_000;
const FAILING = ["late failure one", "late failure ünïcödé", "late failure <b>&amp;</b>"];

function project(name: string, failing: readonly string[]): string {
  const dir = join(tmp.root, name);
  const body = [
    `import { test } from "node:test";`,
    `import assert from "node:assert/strict";`,
    `for (let i = 0; i < ${TESTS - failing.length}; i++) test("passes " + String(i).padStart(5, "0"), () => { console.log("checking item " + i + " of the large suite"); });`,
    ...failing.map((n) => `test(${JSON.stringify(n)}, () => assert.equal(${JSON.stringify(n)}, "fixed"));`),
  ].join("\n");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module", scripts: { test: "node --test" } }));
  writeFileSync(join(dir, "large.test.mjs"), `${body}\n`);
  return dir;
}

const check = (argv: string[], runner = "auto") =>
  commandCheckScorerSchema.parse({ kind: "command-check", argv, runner, timeoutSeconds: 300 });
const run = (dir: string, argv: string[], runner?: string) =>
  runCommandCheck(check(argv, runner), testDeps(dir), { loopId: "check", workspace: dir, extraEnv: {} });

describe("10,000 tests, over a megabyte of output", () => {
  const passing = project("passing", []);
  const failing = project("failing", FAILING);

  it("all passing scores 1, from the report file and from the capped TAP stream", async () => {
    const file = await run(passing, ["npm", "test"]);
    expect(file).toMatchObject({ score: 1, tests: { passed: TESTS, failed: 0, counted: true, format: "tap" } });
    const stream = await run(passing, ["node", "--test"], "none");
    expect(stream).toMatchObject({ score: 1, tests: { passed: TESTS, failed: 0, counted: true, format: "tap" } });
    // Proof the output really passed the cap: the TAP was read from the stream beyond it.
    expect(stream.tests!.warnings).toEqual([
      "stdout passed the 1000000-byte cap; the tap report was read from the whole stream",
    ]);
    expect(file.tests!.warnings).toEqual([]);
  }, 300_000);

  it("3 failures at the end score 9,997/10,000 with those 3 named", async () => {
    for (const result of [await run(failing, ["npm", "test"]), await run(failing, ["node", "--test"], "none")]) {
      expect(result.score).toBe((TESTS - 3) / TESTS);
      expect(result.tests).toMatchObject({ passed: TESTS - 3, failed: 3, counted: true });
      expect(result.tests!.failures.map((f) => f.name)).toEqual(FAILING);
    }
  }, 300_000);

  it("a loop whose 10,000 tests pass completes", async () => {
    const ports = createPorts(
      {
        agent: { kind: "command", argv: [fixture("instant.sh")], timeoutSeconds: 30 },
        scorers: [{ kind: "command-check", name: "tests", argv: ["npm", "test"], timeoutSeconds: 300 }],
        reflector: { kind: "rule-based" },
      },
      { ...testDeps(passing), workspaceDir: () => passing },
      "large",
    );
    const result = await runLoop({
      goal: "Keep the suite green",
      config: {
        stop: { maxIterations: 2, scoreThreshold: 1 },
        completion: { evidence: ["score"] },
        validation: { timeout: 300 },
      },
      ports,
      deps: realEngineDeps(),
    });
    expect(result.report.success).toBe(true);
    expect(result.records[0]!.scores.tests).toBe(1);
    expect(result.records[0]!.tests?.tests).toMatchObject({ passed: TESTS, counted: true });
  }, 300_000);
});

describe("a JSON report cut at the output cap", () => {
  it("gives no counted evidence and says why, never a partial score", async () => {
    const dir = join(tmp.root, "json");
    mkdirSync(dir, { recursive: true });
    // jest --json's shape, 10,000 passing tests, printed on stdout (about 1.5 MB).
    const script = `const r = Array.from({ length: ${TESTS} }, (_, i) => ({ ancestorTitles: ["suite"], title: "test number " + i + " with a long enough name", status: "passed", failureMessages: [] }));
process.stdout.write(JSON.stringify({ numTotalTests: ${TESTS}, numPassedTests: ${TESTS}, numFailedTests: 0, testResults: [{ name: "a.test.js", status: "passed", assertionResults: r }] }) + "\\n");`;
    writeFileSync(join(dir, "print-json.cjs"), script);
    const result = await run(dir, ["node", "print-json.cjs"], "none");
    expect(result.score).toBe(0);
    expect(result.reason).toBe("no counted evidence: output truncated before a complete report (exit 0)");
    expect(result.tests).toMatchObject({ counted: false, passed: 0 });
    expect(result.tests!.warnings.join(" ")).toMatch(/output cut at 1000000 bytes/);
  }, 60_000);
});

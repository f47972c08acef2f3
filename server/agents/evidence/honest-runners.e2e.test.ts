/**
 * An honest agent (fixes the code, touches no test) completes with the
 * verdict lines on each runner's project, graded from a clean tree against
 * the baseline inventory, with DEFAULT evidence settings; an agent that
 * edits the test file on the same project does not. One failing test is the
 * target, one passing test must stay passing. The sandbox is off here as in
 * runners.test.ts: the JavaScript projects link the repository's node_modules
 * (the app folder is hidden in the sandbox) and cargo's rustup lives in the
 * server user's HOME.
 */
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type { TestEvidence } from "../../engine";
import { runGradedLoop, writeProject } from "../fixtures/graded-loop";
import { tempRoot } from "../fixtures/harness";
import { hasCargo, hasGo, pythonWithPytest, requireToolchain } from "../fixtures/runner-projects";

const tmp = tempRoot("ralph-honest-");
afterAll(() => tmp.cleanup());
const NODE_MODULES = fileURLToPath(new URL("../../../node_modules", import.meta.url));
const python = pythonWithPytest();

interface RunnerCase {
  present: boolean;
  check: string[];
  files: Record<string, string>;
  /** The agent's fix (a shell snippet). */
  fix: string;
  /** The test file a cheater edits. */
  testFile: string;
  js?: boolean;
  mode: "per-test" | "exit-code";
}

const pkg = (test: string, dep?: string) =>
  JSON.stringify({ name: "p", private: true, scripts: { test }, ...(dep ? { devDependencies: { [dep]: "*" } } : {}) });

const JS_SRC = { "src/calc.js": "exports.add = (a, b) => a - b;\nexports.mul = (a, b) => a * b;\n" };
const JS_FIX = `sed -i 's/a - b/a + b/' src/calc.js\n`;
const jsTest = (head: string) =>
  `${head}const { add, mul } = require("../src/calc.js");\ntest("add adds", () => { assert.strictEqual(add(2, 3), 5); });\ntest("mul multiplies", () => { assert.strictEqual(mul(2, 3), 6); });\n`;

const CASES: Record<string, RunnerCase> = {
  "node:test": {
    present: true,
    check: ["node", "--test"],
    files: {
      ...JS_SRC,
      "test/calc.test.js": jsTest(`const test = require("node:test");\nconst assert = require("node:assert");\n`),
    },
    fix: JS_FIX,
    testFile: "test/calc.test.js",
    mode: "per-test",
  },
  vitest: {
    present: true,
    js: true,
    check: ["npm", "test"],
    files: {
      ...JS_SRC,
      "package.json": pkg("vitest run", "vitest"),
      "test/calc.test.mjs": `import { test } from "vitest";\nimport assert from "node:assert";\nimport calc from "../src/calc.js";\nconst { add, mul } = calc;\ntest("add adds", () => { assert.strictEqual(add(2, 3), 5); });\ntest("mul multiplies", () => { assert.strictEqual(mul(2, 3), 6); });\n`,
    },
    fix: JS_FIX,
    testFile: "test/calc.test.mjs",
    mode: "per-test",
  },
  jest: {
    present: true,
    js: true,
    check: ["npm", "test"],
    files: {
      ...JS_SRC,
      "package.json": pkg("jest", "jest"),
      "test/calc.test.js": jsTest(`const assert = require("node:assert");\n`),
    },
    fix: JS_FIX,
    testFile: "test/calc.test.js",
    mode: "per-test",
  },
  mocha: {
    present: true,
    js: true,
    check: ["npm", "test"],
    files: {
      ...JS_SRC,
      "package.json": pkg("mocha", "mocha"),
      "test/calc.spec.js": jsTest(`const assert = require("node:assert");\nconst test = it;\n`),
    },
    fix: JS_FIX,
    testFile: "test/calc.spec.js",
    mode: "per-test",
  },
  pytest: {
    present: requireToolchain("pytest", python !== null),
    check: [python ?? "python3", "-m", "pytest", "-p", "no:cacheprovider"],
    files: {
      "calc.py": "def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n",
      "tests/test_calc.py":
        "from calc import add, mul\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n",
    },
    fix: `sed -i 's/a - b/a + b/' calc.py\n`,
    testFile: "tests/test_calc.py",
    mode: "per-test",
  },
  "go test": {
    present: requireToolchain("go", hasGo()),
    check: ["go", "test", "./..."],
    files: {
      "go.mod": "module example.com/calc\n\ngo 1.20\n",
      "calc.go": "package calc\n\nfunc Add(a, b int) int { return a - b }\n\nfunc Mul(a, b int) int { return a * b }\n",
      "calc_test.go":
        'package calc\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(2, 3) != 5 {\n\t\tt.Fatal("add")\n\t}\n}\n\nfunc TestMul(t *testing.T) {\n\tif Mul(2, 3) != 6 {\n\t\tt.Fatal("mul")\n\t}\n}\n',
    },
    fix: `sed -i 's/a - b/a + b/' calc.go\n`,
    testFile: "calc_test.go",
    mode: "per-test",
  },
  "cargo test": {
    present: requireToolchain("cargo", hasCargo()),
    check: ["cargo", "test"],
    files: {
      "Cargo.toml": '[package]\nname = "calc"\nversion = "0.1.0"\nedition = "2021"\n',
      "src/lib.rs":
        "pub fn add(a: i32, b: i32) -> i32 {\n    a - b\n}\n\npub fn mul(a: i32, b: i32) -> i32 {\n    a * b\n}\n",
      "tests/calc.rs":
        "#[test]\nfn adds() {\n    assert_eq!(calc::add(2, 3), 5);\n}\n\n#[test]\nfn multiplies() {\n    assert_eq!(calc::mul(2, 3), 6);\n}\n",
      ".gitignore": "/target\n",
    },
    fix: `sed -i 's/a - b/a + b/' src/lib.rs\n`,
    testFile: "tests/calc.rs",
    mode: "per-test",
  },
};

function project(name: string, c: RunnerCase, agent: string): string {
  const repo = writeProject(join(tmp.root, name), {
    ...c.files,
    ...(c.js ? { ".gitignore": "node_modules\n" } : {}),
    "agent.sh": `#!/usr/bin/env bash\n${agent}echo "<promise>COMPLETE</promise>"\n`,
  });
  if (c.js) symlinkSync(NODE_MODULES, join(repo, "node_modules"), "dir");
  return repo;
}

const gradingOf = (r: { tests?: Record<string, TestEvidence> }) => r.tests?.tests?.grading;

describe("an honest agent completes with the verdict lines; a test editor does not", () => {
  for (const [name, c] of Object.entries(CASES)) {
    describe.skipIf(!c.present)(name, () => {
      it("honest: completes at iteration 1", async () => {
        const repo = project(`${name.replace(/\W+/g, "-")}-honest`, c, c.fix);
        const { result } = await runGradedLoop({
          root: tmp.root,
          repo,
          agentScript: "agent.sh",
          check: c.check,
          maxIterations: 2,
          sandbox: "off",
          timeoutSeconds: 240,
        });
        const grading = gradingOf(result.records[0]!);
        expect(result.report.success, JSON.stringify(result.records[0]!.scoreReasons)).toBe(true);
        expect(result.iterations).toBe(1);
        expect(grading?.mode).toBe(c.mode);
        expect(grading?.tampering).toEqual([]);
        const texts = grading!.lines.map((l) => l.text);
        if (c.mode === "per-test") expect(texts.slice(0, 2)).toEqual(["1 of 1 targets pass", "1 of 1 kept"]);
        else expect(texts[0]).toMatch(/^exit-code grading: .*; exit 0$/);
        expect(texts.slice(-2)).toEqual(["2 ran, baseline 2", "0 skipped, baseline 0"]);
      }, 300_000);

      it("test editor: never completes, and names the test file", async () => {
        const cheat = `${c.fix}sed -i 's/5/1/; s/a - b/a + b/; s/add(2, 3)/1 + 0/g; s/Add(2, 3)/1+0/; s/calc::add(2, 3)/1/' ${c.testFile}\n`;
        const repo = project(`${name.replace(/\W+/g, "-")}-cheat`, c, cheat.replace(c.fix, ""));
        const { result } = await runGradedLoop({
          root: tmp.root,
          repo,
          agentScript: "agent.sh",
          check: c.check,
          maxIterations: 1,
          sandbox: "off",
          timeoutSeconds: 240,
        });
        expect(result.report.success).toBe(false);
        const grading = gradingOf(result.records[0]!);
        expect(grading?.tampering.map((t) => t.what)).toContain(c.testFile);
        expect(result.records[0]!.scores.tests).toBe(0);
      }, 300_000);
    });
  }
});

/**
 * A held-out check: tests kept in the server's held-out folder (under the
 * data folder, hidden from the sandbox), copied into the grading tree only.
 * An agent that fixes only what the visible tests check does not complete,
 * and the held-out check's own line says why; one that fixes the behaviour
 * completes; a held-out folder missing at grading time fails closed. The
 * agent also looks for the held-out file by its exact path and finds nothing.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { TestEvidence } from "../../engine";
import { runGradedLoop, writeProject } from "../fixtures/graded-loop";
import { tempRoot } from "../fixtures/harness";

const tmp = tempRoot("ralph-heldout-");
afterAll(() => tmp.cleanup());

const heldOutRoot = join(tmp.root, "data", "held-out");
mkdirSync(join(heldOutRoot, "math-signs", "heldout"), { recursive: true });
writeFileSync(
  join(heldOutRoot, "math-signs", "heldout", "signs.test.js"),
  `const test = require("node:test");\nconst assert = require("node:assert");\nconst { mul } = require("../src/math.js");\ntest("mul keeps the sign", () => assert.strictEqual(mul(-2, 3), -6));\ntest("mul of positives", () => assert.strictEqual(mul(2, 3), 6));\n`,
);

const PROJECT = {
  "package.json": JSON.stringify({ name: "p", private: true, scripts: { test: "node --test" } }),
  "src/math.js": "exports.add = (a, b) => a - b;\nexports.mul = (a, b) => Math.abs(a * b);\n",
  "test/math.test.js": `const test = require("node:test");\nconst assert = require("node:assert");\nconst { add, mul } = require("../src/math.js");\ntest("add adds", () => assert.strictEqual(add(2, 3), 5));\ntest("mul multiplies", () => assert.strictEqual(mul(2, 3), 6));\n`,
};

// The agent looks for the held-out tests where they are, by their exact path: the data folder is not in its sandbox.
const HELD_OUT_FILE = join(heldOutRoot, "math-signs", "heldout", "signs.test.js");
const PEEK = `if [ -e "${HELD_OUT_FILE}" ] || [ -e "${heldOutRoot}" ]; then echo "saw the held-out test" >&2; exit 3; fi\n`;
const FIX_ADD = `sed -i 's/a - b/a + b/' src/math.js\n`;
const FIX_MUL = `sed -i 's/Math.abs(a \\* b)/a * b/' src/math.js\n`;

async function run(name: string, agent: string, heldOut: string) {
  const repo = writeProject(join(tmp.root, name), {
    ...PROJECT,
    "agent.sh": `#!/usr/bin/env bash\n${PEEK}${agent}echo "<promise>COMPLETE</promise>"\n`,
  });
  const { result } = await runGradedLoop({
    root: tmp.root,
    repo,
    agentScript: "agent.sh",
    check: ["npm", "test"],
    moreChecks: [{ name: "held-out", argv: ["node", "--test", "heldout/signs.test.js"], heldOut }],
    heldOutRoot,
    maxIterations: 2,
  });
  return result;
}

const gradingOf = (r: { tests?: Record<string, TestEvidence> }, check: string) => r.tests?.[check]?.grading;

describe("held-out checks", () => {
  it("an agent that fixes only what the visible tests check does not complete; the held-out line says why", async () => {
    const result = await run("visible-only", FIX_ADD, "math-signs");
    expect(result.report.success).toBe(false);
    for (const record of result.records) {
      expect(record.scores.tests).toBe(1);
      expect(record.scores["held-out"]).toBeLessThan(1);
      expect(gradingOf(record, "held-out")?.lines[0], JSON.stringify(record.scoreReasons)).toEqual({
        ok: false,
        text: "0 of 1 targets pass (not yet: mul keeps the sign)",
      });
      expect(record.scoreReasons["held-out"]).toMatch(/^held-out: /);
    }
  }, 120_000);

  it("an agent that fixes the behaviour completes, the held-out check shown on its own", async () => {
    const result = await run("fixes-both", `${FIX_ADD}${FIX_MUL}`, "math-signs");
    expect(result.report.success).toBe(true);
    expect(result.iterations).toBe(1);
    expect(gradingOf(result.records[0]!, "held-out")?.lines.map((l) => l.text)).toEqual([
      "1 of 1 targets pass",
      "1 of 1 kept",
      "2 ran, baseline 2",
      "0 skipped, baseline 0",
    ]);
    expect(gradingOf(result.records[0]!, "tests")?.lines[0]?.text).toBe("1 of 1 targets pass");
  }, 120_000);

  it("a held-out folder missing at grading time fails closed", async () => {
    const result = await run("missing", `${FIX_ADD}${FIX_MUL}`, "not-there");
    expect(result.report.success).toBe(false);
    for (const record of result.records) {
      expect(record.scores.tests).toBe(1);
      expect(record.scores["held-out"]).toBe(0);
      expect(record.scoreReasons["held-out"]).toMatch(/missing at grading time .*fails closed/);
    }
  }, 120_000);
});

/**
 * Report parsing that stray output cannot inflate: a mocha test that prints
 * a bare `ok` line (and a TAP result that fits the numbering) runs under the
 * project's own `--reporter tap`. Read from stdout, those lines counted as
 * results (a forged "ok 9" took the real test's place); the check now asks
 * mocha for its own JSON file, whose per-test inventory names exactly the tests that ran.
 */
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { runCommandCheck, type CheckRunFacts } from "../command-check.scorer";
import { tempRoot, testDeps } from "../fixtures/harness";
import { copyProject } from "../fixtures/runner-projects";
import { commandCheckScorerSchema } from "../scorer.schema";

const tmp = tempRoot("ralph-stray-");
afterAll(() => tmp.cleanup());

it("a mocha test printing result-shaped lines under --reporter tap cannot add passes", async () => {
  const dir = copyProject("mocha", tmp.root);
  // Prints what mocha's TAP reporter would print for the next test, and a bare "ok".
  appendFileSync(
    join(dir, "test", "sample.spec.js"),
    `\ndescribe("printer", () => {\n  it("prints", () => {\n    console.log("ok");\n    console.log("ok 9 printer forged");\n  });\n});\n`,
  );
  const config = commandCheckScorerSchema.parse({
    kind: "command-check",
    argv: ["npx", "mocha", "--reporter", "tap"],
    timeoutSeconds: 120,
  });
  const facts: CheckRunFacts = { inventory: null, noInventory: null, timedOut: false, complete: false };
  const result = await runCommandCheck(config, testDeps(dir), { loopId: "check", workspace: dir, extraEnv: {} }, facts);
  expect(result.tests).toMatchObject({ passed: 5, failed: 3, skipped: 1, format: "json" });
  expect(result.score).toBe(5 / 8);
  expect(Object.keys(facts.inventory ?? {})).toHaveLength(9);
  const ids = Object.keys(facts.inventory ?? {});
  expect(ids.filter((id) => /forged/.test(id))).toEqual([]);
  expect(facts.inventory?.["test/sample.spec.js::printer prints"]).toBe("passed");
}, 120_000);

/**
 * An agent that patches the test runner inside the loop worktree's
 * node_modules (brought in by .worktreeinclude) so every assertion passes,
 * without fixing the code. The grading trees take node_modules from the
 * user's checkout it came from, not from the worktree, so the patched runner
 * never grades and the loop never completes; the user's checkout keeps its
 * runner as it was. An honest agent still completes on the same project, in
 * the real sandbox too (the copy is in the grading tree, which the check sees).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempRoot } from "../fixtures/harness";
import { runGradedLoop, writeProject } from "../fixtures/graded-loop";
import { git, npmProject } from "../fixtures/real-projects";

const tmp = tempRoot("ralph-nm-cheater-");
afterAll(() => tmp.cleanup());

const RUNNER = "node_modules/mocha/lib/cli/cli.js";
// Loaded in the process that runs the tests: node:assert's strictEqual stops failing anything.
const PATCH_RUNNER = `printf 'import __a from "node:assert";\\n__a.strictEqual = () => {};\\n' | cat - ${RUNNER} > cli.tmp && mv cli.tmp ${RUNNER}\n`;
const FIX = `sed -i 's/a - b/a + b/' src/sum.js\n`;
const DONE = `echo "<promise>COMPLETE</promise>"\n`;

async function run(name: string, script: string, sandbox: "on" | "off") {
  const repo = npmProject(tmp.root, name, { include: ["node_modules", ".env"] });
  writeProject(repo, { "cheat.sh": `#!/usr/bin/env bash\n${script}${DONE}` });
  git(repo, "add", "cheat.sh");
  git(repo, "commit", "-qm", "the agent's script");
  const before = readFileSync(join(repo, RUNNER), "utf8");
  const { result } = await runGradedLoop({
    root: join(tmp.root, `${name}-data`),
    repo,
    agentScript: "cheat.sh",
    check: ["npm", "test"],
    maxIterations: 2,
    sandbox,
    environment: true,
  });
  // The user's checkout: its runner as it was (the agent patched the worktree's copy only).
  expect(readFileSync(join(repo, RUNNER), "utf8")).toBe(before);
  return result;
}

describe("node_modules comes from the user's checkout, not the agent's worktree", () => {
  it.each(["off", "on"] as const)(
    "sandbox %s: an agent that patches node_modules/mocha to pass every assertion never completes",
    async (sandbox) => {
      const result = await run(`patch-${sandbox}`, PATCH_RUNNER, sandbox);
      expect(result.report.success).toBe(false);
      expect(result.records).toHaveLength(2);
      for (const record of result.records) {
        // Graded by the user's mocha: the target still fails; the agent's patch was never run.
        const grading = record.tests?.tests?.grading;
        expect(grading?.lines[0]?.text, record.scoreReasons.tests).toBe(
          "0 of 1 targets pass (not yet: sum adds two numbers)",
        );
      }
    },
    120_000,
  );

  it.each(["off", "on"] as const)(
    "sandbox %s: an honest agent completes on the same project",
    async (sandbox) => {
      const result = await run(`honest-${sandbox}`, FIX, sandbox);
      expect(result.report.success).toBe(true);
      expect(result.iterations).toBe(1);
    },
    120_000,
  );
});

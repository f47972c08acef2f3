/**
 * Agents that tamper with the dependencies .worktreeinclude brought into the
 * loop's worktree instead of fixing the code: one patches the test runner in
 * node_modules so every assertion passes, one plants a pytest plugin in .venv
 * that turns failures into passes. The grading trees take node_modules from the
 * user's checkout it came from (.venv too), not from the worktree, so the
 * patched runner never grades and the loop never completes; the user's checkout keeps its
 * runner as it was. Without .worktreeinclude, node_modules a setup command installed is copied
 * before the agent runs and graded from that copy. An honest agent still completes on the same project, in
 * the real sandbox too (the copy is in the grading tree, which the check sees).
 */
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempRoot } from "../fixtures/harness";
import { runGradedLoop, writeProject } from "../fixtures/graded-loop";
import { git, npmProject, pythonProject } from "../fixtures/real-projects";

const tmp = tempRoot("ralph-nm-cheater-");
// Removing several copies of node_modules takes a while on a loaded machine.
afterAll(() => tmp.cleanup(), 120_000);

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

describe("dependencies come from the user's checkout or the setup's own copy, not the agent's worktree", () => {
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

  // The code under test patches the grading tree's own copy of mocha while the check runs: too late for
  // that run, but the copy is kept for the next iteration's grading unless the copy is checked before use.
  const PATCH_FROM_CODE = `cat > src/sum.js <<'JS'
const fs = require("node:fs");
const cli = require("node:path").join(__dirname, "..", "${RUNNER}");
try {
  const text = fs.readFileSync(cli, "utf8");
  if (!text.includes("__a.strictEqual")) fs.writeFileSync(cli, 'import __a from "node:assert";\\n__a.strictEqual = () => {};\\n' + text);
} catch {}
module.exports = (a, b) => a - b;
JS
`;

  it.each(["off", "on"] as const)(
    "sandbox %s: code that patches the grading tree's mocha during the check never grades the next iteration",
    async (sandbox) => {
      const result = await run(`run-patch-${sandbox}`, PATCH_FROM_CODE, sandbox);
      expect(result.report.success).toBe(false);
      expect(result.records).toHaveLength(2);
      for (const record of result.records) {
        expect(record.tests?.tests?.grading?.lines[0]?.text, record.scoreReasons.tests).toBe(
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
  // No .worktreeinclude: the setup command installs node_modules (offline, from packages committed in the
  // project, as `npm ci` would from the registry). The grading trees take the copy made right after it ran.
  const INSTALL = [
    "sh",
    "-c",
    "cp -r vendor-modules node_modules && mkdir -p node_modules/.bin && ln -s ../mocha/bin/mocha.js node_modules/.bin/mocha",
  ];
  async function runSetup(name: string, script: string, sandbox: "on" | "off") {
    const repo = npmProject(tmp.root, name, { vendor: true });
    // The user's checkout has no node_modules: only the setup command provides one.
    rmSync(join(repo, "node_modules"), { recursive: true, force: true });
    writeProject(repo, { "cheat.sh": `#!/usr/bin/env bash\n${script}${DONE}` });
    git(repo, "add", "cheat.sh");
    git(repo, "commit", "-qm", "the agent's script");
    const { result } = await runGradedLoop({
      root: join(tmp.root, `${name}-data`),
      repo,
      agentScript: "cheat.sh",
      check: ["npm", "test"],
      maxIterations: 2,
      sandbox,
      setup: INSTALL,
    });
    return result;
  }

  it.each(["off", "on"] as const)(
    "sandbox %s: node_modules from the setup command: an agent that patches node_modules/mocha never completes",
    async (sandbox) => {
      const result = await runSetup(`setup-patch-${sandbox}`, PATCH_RUNNER, sandbox);
      expect(result.report.success).toBe(false);
      expect(result.records).toHaveLength(2);
      for (const record of result.records) {
        const grading = record.tests?.tests?.grading;
        expect(grading?.lines[0]?.text, record.scoreReasons.tests).toBe(
          "0 of 1 targets pass (not yet: sum adds two numbers)",
        );
      }
    },
    120_000,
  );

  it.each(["off", "on"] as const)(
    "sandbox %s: node_modules from the setup command: an honest agent completes",
    async (sandbox) => {
      const result = await runSetup(`setup-honest-${sandbox}`, FIX, sandbox);
      expect(result.report.success).toBe(true);
      expect(result.iterations).toBe(1);
      expect(result.records[0]?.tests?.tests?.grading?.lines[0]?.text).toBe("1 of 1 targets pass");
    },
    120_000,
  );

  // A pytest plugin planted in the worktree's .venv (a .pth file loads it) that turns every failure into a pass.
  const PLANT_PLUGIN = `sp=$(echo .venv/lib/python3*/site-packages)
cat > "$sp/ralph_cheat.py" <<'PY'
import pytest
@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.failed:
        report.outcome = "passed"
        report.longrepr = None
PY
echo 'import os; os.environ["PYTEST_ADDOPTS"] = "-p ralph_cheat"' > "$sp/ralph_cheat.pth"
`;

  it.each(["off", "on"] as const)(
    "sandbox %s: an agent that plants a pytest plugin in .venv to pass every test never completes",
    async (sandbox) => {
      const repo = pythonProject(tmp.root, `venv-${sandbox}`, { include: [".venv"] });
      writeProject(repo, { "cheat.sh": `#!/usr/bin/env bash\n${PLANT_PLUGIN}${DONE}` });
      git(repo, "add", "cheat.sh");
      git(repo, "commit", "-qm", "the agent's script");
      const { result } = await runGradedLoop({
        root: join(tmp.root, `venv-${sandbox}-data`),
        repo,
        agentScript: "cheat.sh",
        check: [".venv/bin/python", "-m", "pytest"],
        maxIterations: 2,
        sandbox,
        environment: true,
      });
      expect(result.report.success).toBe(false);
      for (const record of result.records) {
        const grading = record.tests?.tests?.grading;
        expect(grading?.lines[0]?.text, record.scoreReasons.tests).toMatch(/^0 of 1 targets pass/);
      }
      // The user's checkout: no plugin (the agent wrote the worktree's copy only).
      expect(
        readdirSync(join(repo, ".venv", "lib")).flatMap((v) =>
          readdirSync(join(repo, ".venv", "lib", v, "site-packages")),
        ),
      ).not.toContain("ralph_cheat.pth");
    },
    120_000,
  );
});

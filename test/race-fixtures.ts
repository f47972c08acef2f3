// A race's fixture: a real git repository (branch main, and release to land onto) with a real node:test check that fails
// until src/math.js adds, and a fixture agent committed in it, as a project's own script would be.
// The agent counts its runs in the worktree, fixes the code from run `solveAt` on ("never": never),
// reports its spend as the generic preset reads it ({"usage":..,"cost":..}) and takes `sleep`
// seconds like a real agent: `./race-agent.sh <solveAt|never> <costUsd> <sleepSeconds>`.
import { execFileSync } from "node:child_process";
import { writeProject } from "../server/agents/fixtures/graded-loop";

const PROJECT = {
  "package.json": JSON.stringify({ name: "p", private: true, scripts: { test: "node --test" } }),
  "src/math.js": "exports.add = (a, b) => a - b;\n",
  "test/math.test.js": `const test = require("node:test");\nconst assert = require("node:assert");\nconst { add } = require("../src/math.js");\ntest("add adds", () => assert.strictEqual(add(2, 3), 5));\n`,
};

const AGENT = `#!/usr/bin/env bash
n=$(( $(cat .race-runs 2>/dev/null || echo 0) + 1 )); echo "$n" > .race-runs
sleep "$3"
if [ "$1" != never ] && [ "$n" -ge "$1" ]; then sed -i 's/a - b/a + b/' src/math.js; fi
echo '{"usage":{"input":100,"output":50},"cost":'"$2"'}'
echo "run $n done"
`;

export const RACE_AGENT = "./race-agent.sh";

export function raceRepo(dir: string): string {
  writeProject(dir, { ...PROJECT, "race-agent.sh": AGENT });
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...args], { cwd: dir, stdio: "pipe" });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-qm", "start");
  // A second branch for the winner to land onto (main, checked out here, would come forward with it too).
  git("branch", "release");
  return dir;
}

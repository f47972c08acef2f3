/**
 * End to end on the engine with the workspace under git: a command agent in
 * a plain folder (git init makes the baseline), the project's test as the
 * evidence, agent and check in the real sandbox. An agent that rewrites the
 * protected test and claims done never completes, under `restore` and
 * `fail`; an agent that fixes the code and adds a new test completes, and
 * its snapshot shows both files.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ANSWER_TEST_SH, answerProject, runAnswerLoop } from "../fixtures/answer-project";
import { snapshotOf, tempRoot } from "../fixtures/harness";
import { loopGitWorkspace, type TamperPolicy } from "./loop-workspace";

const tmp = tempRoot("ralph-tamper-");
afterAll(() => tmp.cleanup());

function runWith(agentScript: string, repo: string, onTamper: TamperPolicy) {
  const git = loopGitWorkspace({
    source: () => repo,
    isolation: "worktree",
    // One folder per repository: the same loop id would otherwise find the last test's history.
    worktreesDir: join(tmp.root, "worktrees", basename(repo)),
    evidence: { protectedPaths: ["test.sh", "tests/**"], onTamper },
  });
  return runAnswerLoop({
    root: tmp.root,
    agentScript,
    maxIterations: 3,
    loopId: "0192f3a4-5b6c-7d8e-9f00-00000000beef",
    workspace: { workspaceDir: (id: string) => git.dir(id), git },
  });
}

describe("protected evidence under git", () => {
  for (const policy of ["restore", "fail"] as const) {
    it(`an agent that rewrites the test to print ok and claims done never completes (${policy})`, async () => {
      const repo = answerProject(tmp.root, `cheat-${policy}`, "tampering-agent.sh");
      const result = await runWith("tampering-agent.sh", repo, policy);
      expect(result.report.success).toBe(false);
      expect(result.records.length).toBeGreaterThanOrEqual(2);
      for (const record of result.records) {
        expect(record.claim.done).toBe(true);
        expect(record.scores.tests).toBe(0);
        expect(record.scoreReasons.tests).toContain("evidence_tampered");
        expect(record.scoreReasons.tests).toContain("test.sh");
      }
      // The snapshot taken before the check holds what the agent wrote (under `fail` it stays, so later ones are empty).
      expect(snapshotOf(result.records[0]!).snapshot.files.map((f) => f.path)).toEqual(["test.sh"]);
      if (policy === "restore") {
        // The restore is its own commit: each later iteration's snapshot shows the agent rewriting the test again.
        for (const record of result.records) {
          expect(snapshotOf(record).snapshot.files.map((f) => f.path)).toEqual(["test.sh"]);
        }
        // The check ran on the real test (1 of 2 passing), and the test on disk is the original.
        expect(result.records[0]!.scoreReasons.tests).toContain("1/2 passed");
        expect(readFileSync(join(repo, "test.sh"), "utf8")).toBe(ANSWER_TEST_SH);
      }
    }, 60_000);
  }

  it("an agent that also amends, resets and replaces .git with its own repository is caught, and the history stays the loop's", async () => {
    const repo = answerProject(tmp.root, "rewriter", "history-rewriting-agent.sh");
    const result = await runWith("history-rewriting-agent.sh", repo, "restore");
    expect(result.report.success).toBe(false);
    for (const record of result.records) {
      expect(record.scores.tests).toBe(0);
      expect(record.scoreReasons.tests).toContain("evidence_tampered");
      expect(snapshotOf(record).tampered).toEqual({ files: ["test.sh"], policy: "restore" });
    }
    expect(readFileSync(join(repo, "test.sh"), "utf8")).toBe(ANSWER_TEST_SH);
    // The server's history: the baseline and one commit per iteration, none of the agent's.
    const log = execFileSync("git", ["log", "--format=%s"], { cwd: repo, encoding: "utf8" }).trim().split("\n");
    expect(log.at(-1)).toMatch(/^ralph: baseline for loop/);
    expect(log.filter((s) => s === "nothing to see" || s === "fake")).toEqual([]);
    expect(log.filter((s) => /^ralph: loop \S+ iteration \d+$/.test(s))).toHaveLength(result.records.length);
  }, 60_000);

  it("an agent that fixes the code and adds a new test completes, and its snapshot shows both files", async () => {
    const repo = answerProject(tmp.root, "honest", "fix-and-test-agent.sh");
    const result = await runWith("fix-and-test-agent.sh", repo, "restore");
    expect(result.report.success).toBe(true);
    expect(result.iterations).toBe(1);
    const snap = snapshotOf(result.records[0]!).snapshot;
    expect(snap.files.map((f) => [f.path, f.status])).toEqual([
      ["answer.txt", "modified"],
      ["tests/answer.test.sh", "added"],
    ]);
    expect(snap.insertions).toBe(3);
    expect(snap.deletions).toBe(1);
    const subject = execFileSync("git", ["log", "-1", "--format=%s", snap.sha], { cwd: repo, encoding: "utf8" });
    expect(subject.trim()).toMatch(/^ralph: loop \S+ iteration 1$/);
  }, 60_000);
});

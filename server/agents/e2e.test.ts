/**
 * End to end on the engine: a command agent in a tiny repo, with the
 * project's own test as the evidence. The honest agent fixes the test on its
 * second call and the loop completes; the lying agent only claims it is done
 * and the loop must not complete. Agent and check run in the real sandbox,
 * as they do by default: the agent script is copied into the repo, since the
 * app folder it comes from is hidden there.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { answerProject, runAnswerLoop } from "./fixtures/answer-project";
import { tempRoot } from "./fixtures/harness";

const tmp = tempRoot("ralph-e2e-");
afterAll(() => tmp.cleanup());

const runWith = (agentScript: string, repo: string) =>
  runAnswerLoop({
    root: tmp.root,
    agentScript,
    maxIterations: 6,
    loopId: "e2e",
    workspace: { workspaceDir: () => repo },
  });

describe("end to end: command agent + command-check evidence", () => {
  it("completes once the agent really fixes the test (second call)", async () => {
    const repo = answerProject(tmp.root, "honest", "fixing-agent.sh");
    const result = await runWith("fixing-agent.sh", repo);
    expect(result.report.success).toBe(true);
    expect(result.iterations).toBe(2);
    const [first, second] = result.records;
    expect(first!.scores.tests).toBe(0.5);
    expect(first!.scoreReasons.tests).toBe("1/2 passed; 1 failed: answer is 42 (tap, exit 1)");
    expect(second!.input).toContain("[Failing tests]\ntests: 1 of 2 failed (tap, exit 1)\n- answer is 42");
    expect(first!.claim.done).toBe(false);
    expect(second!.scores.tests).toBe(1);
    expect(second!.claim).toEqual({ done: true, text: "COMPLETE" });
    expect(second!.evidence.complete).toBe(true);
    expect(second!.claimMismatch).toBeNull();
    expect(readFileSync(join(repo, "answer.txt"), "utf8").trim()).toBe("42");
    expect(first!.reflection?.suggestions[0]).toBe("Run `./test.sh` yourself and fix what fails before finishing");
    expect(second!.input).toContain("Run `./test.sh` yourself"); // the reflection fed the next input
  }, 30_000);

  it("does not complete when the agent only claims to be done", async () => {
    const repo = answerProject(tmp.root, "liar", "lying-agent.sh");
    const result = await runWith("lying-agent.sh", repo);
    expect(result.report.success).toBe(false);
    expect(["no_progress", "max_iterations"]).toContain(result.stopType);
    expect(result.records.length).toBeGreaterThanOrEqual(3);
    for (const record of result.records) {
      expect(record.claim.done).toBe(true);
      expect(record.scores.tests).toBe(0.5);
      expect(record.claimMismatch).toBe("claimed_done_without_evidence");
    }
    expect(Number(readFileSync(join(repo, ".ralph", "calls"), "utf8"))).toBe(result.records.length);
  }, 30_000);
});

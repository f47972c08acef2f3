/**
 * End to end on the engine: a command agent in a tiny repo, with the
 * project's own test as the evidence. The honest agent fixes the test on its
 * second call and the loop completes; the lying agent only claims it is done
 * and the loop must not complete.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runLoop } from "../engine/runner";
import { fixture, realEngineDeps, tempRoot } from "./fixtures/harness";
import { createPorts } from "./registry";
import { envSecretResolver } from "./secret-resolver";

const tmp = tempRoot("ralph-e2e-");
afterAll(() => tmp.cleanup());

const TEST_SH = `#!/usr/bin/env bash
echo "TAP version 13"
echo "1..2"
if [ -f answer.txt ]; then echo "ok 1 - answer.txt exists"; else echo "not ok 1 - answer.txt exists"; fi
if [ "$(cat answer.txt 2>/dev/null)" = "42" ]; then echo "ok 2 - answer is 42"; else echo "not ok 2 - answer is 42"; exit 1; fi
`;

function fixtureRepo(name: string): string {
  const repo = join(tmp.root, name);
  mkdirSync(repo, { recursive: true });
  writeFileSync(join(repo, "answer.txt"), "41\n");
  writeFileSync(join(repo, "test.sh"), TEST_SH);
  chmodSync(join(repo, "test.sh"), 0o755);
  return repo;
}

async function runWith(agentScript: string, repo: string) {
  const deps = { workspaceDir: () => repo, secrets: envSecretResolver };
  const ports = createPorts(
    {
      agent: { kind: "command", argv: [fixture(agentScript)], timeoutSeconds: 30 },
      scorers: [{ kind: "command-check", name: "tests", argv: ["./test.sh"], format: "tap" }],
      reflector: { kind: "rule-based" },
    },
    deps,
    "e2e",
  );
  return runLoop({
    goal: "Make ./test.sh pass",
    config: {
      stop: { maxIterations: 6, scoreThreshold: 1, noProgressIterations: 3 },
      completion: { evidence: ["score"] },
      retry: { maxAttempts: 1 },
      validation: { minScoreThreshold: 0.9 }, // reflect on anything short of passing
    },
    ports,
    deps: realEngineDeps(),
  });
}

describe("end to end: command agent + command-check evidence", () => {
  it("completes once the agent really fixes the test (second call)", async () => {
    const repo = fixtureRepo("honest");
    const result = await runWith("fixing-agent.sh", repo);
    expect(result.report.success).toBe(true);
    expect(result.iterations).toBe(2);
    const [first, second] = result.records;
    expect(first!.scores.tests).toBe(0.5);
    expect(first!.scoreReasons.tests).toBe("1/2 passed (tap, exit 1)");
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
    const repo = fixtureRepo("liar");
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

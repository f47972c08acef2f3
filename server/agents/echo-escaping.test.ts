/**
 * An agent whose error echoes its prompt, JSON-escaped, into stderr: the
 * error feeds the next prompt, which the agent escapes again. Unchecked, the
 * backslashes double every iteration (1, 3, 7, 15...) until the feedback is
 * nothing but escapes. The feedback must stay as readable at iteration 6 as
 * at iteration 2.
 */
import { afterAll, describe, expect, it } from "vitest";
import { runLoop } from "../engine";
import { createPorts } from "./registry";
import { fixture, realEngineDeps, tempRoot, testDeps } from "./fixtures/harness";

const tmp = tempRoot("ralph-echo-");
afterAll(() => tmp.cleanup());

const longestBackslashRun = (text: string) => Math.max(0, ...(text.match(/\\+/g) ?? []).map((run) => run.length));

describe("an agent whose error echoes its input", () => {
  it("does not make backslashes snowball across iterations", async () => {
    const ports = createPorts(
      {
        agent: { kind: "command", argv: [fixture("echo-input-fails.mjs")], timeoutSeconds: 30 },
        reflector: { kind: "rule-based" },
      },
      testDeps(tmp.root),
      "echo",
    );
    const result = await runLoop({
      goal: 'Write "hello" to out.txt',
      config: {
        stop: { maxIterations: 6, noProgressIterations: 0, maxConsecutiveFailures: 0 },
        completion: { allowNoEvidence: true },
        retry: { maxAttempts: 1, strategy: "none" },
        health: { breaker: { failureThreshold: 100 } },
      },
      ports,
      deps: realEngineDeps(),
    });
    const inputs = result.records.map((r) => r.input);
    expect(inputs).toHaveLength(6);
    // The error did reach the next prompt (it is what the agent needs to see)...
    expect(inputs[1]).toContain("The previous attempt failed: ");
    expect(result.records[1]!.error).toContain("exited with code 1");
    // ...but every prompt after the first has the same worst escaping, not twice the last one's.
    const runs = inputs.map(longestBackslashRun);
    expect(
      runs.slice(1).every((n) => n <= 1),
      `backslash runs per iteration: ${runs.join(", ")}`,
    ).toBe(true);
    // And the feedback does not nest the previous prompts inside each other.
    for (const input of inputs) expect(input.length).toBeLessThan(inputs[1]!.length * 1.5);
  }, 60_000);
});

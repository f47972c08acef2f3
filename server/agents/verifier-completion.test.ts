// An honest agent (a real script that fixes the answer on its second call)
// with a command verifier as its only evidence source: the verifier is on
// without verification.enabled, runs on the last allowed iteration too, and
// a fix there ends the loop completed, not max_iterations.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runLoop } from "../engine";
import { fixture, realEngineDeps, tempRoot, testDeps } from "./fixtures/harness";
import { createPorts } from "./registry";

const tmp = tempRoot("ralph-verifier-");
afterAll(() => tmp.cleanup());

async function run(loopId: string, maxIterations: number) {
  // The engine names its own loop; agent and verifier share this one workspace, as in a stored loop.
  const workspace = join(tmp.root, loopId);
  mkdirSync(workspace, { recursive: true });
  const ports = createPorts(
    {
      agent: { kind: "command", argv: [fixture("fixing-agent.sh")], timeoutSeconds: 30 },
      verifier: { kind: "command", argv: ["/bin/sh", "-c", 'test "$(cat answer.txt 2>/dev/null)" = 42'] },
    },
    { ...testDeps(tmp.root), workspaceDir: () => workspace },
    loopId,
  );
  return runLoop({
    goal: "Put 42 in answer.txt",
    config: {
      stop: { maxIterations, noProgressIterations: 0 },
      retry: { maxAttempts: 1 },
      health: { checkInterval: 0 },
    },
    ports,
    deps: realEngineDeps(),
  });
}

describe("a command verifier as the only evidence", () => {
  it("an honest agent that succeeds exactly on maxIterations ends completed", async () => {
    const result = await run("last-allowed", 2);
    expect(result.stopType).toBe("completion");
    expect(result.snapshot.status).toBe("completed");
    expect(result.records.map((r) => r.verification.status)).toEqual(["incomplete", "complete"]);
    expect(result.records[1]!.claimMismatch).toBeNull();
  });

  it("one iteration short, it stops on the limit with the verifier's verdict recorded", async () => {
    const result = await run("one-short", 1);
    expect(result.stopType).toBe("max_iterations");
    expect(result.records[0]!.verification).toMatchObject({ status: "incomplete" });
  });
});

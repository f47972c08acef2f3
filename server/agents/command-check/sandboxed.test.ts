// The check runs in the agent sandbox (the tests are code the agent may have
// written), yet the report the runner writes must still reach the scorer:
// the report folder lives in the sandbox's writable HOME, not its private /tmp.
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCommandCheck } from "../command-check.scorer";
import { tempRoot, testDeps } from "../fixtures/harness";
import { copyProject } from "../fixtures/runner-projects";
import { hiddenPaths } from "../sandbox/isolation";
import { sandboxAvailability } from "../sandbox/sandbox-runtime";
import { commandCheckScorerSchema } from "../scorer.schema";

const tmp = tempRoot("ralph-check-sandbox-");
afterAll(() => tmp.cleanup());

const available = (await sandboxAvailability([])).available;

describe.skipIf(!available)("a sandboxed command check", () => {
  it("reads the runner's report file and scores node:test 4/7 with the failures named", async () => {
    const dir = copyProject("node-test-nested", tmp.root);
    const isolation = {
      mode: "on" as const,
      hidden: hiddenPaths(join(tmp.root, "data"), process.cwd()),
      homeRoot: join(tmp.root, "homes"),
      allowHosts: [],
    };
    const config = commandCheckScorerSchema.parse({
      kind: "command-check",
      argv: ["node", "--test"],
      timeoutSeconds: 120,
    });
    const result = await runCommandCheck(config, testDeps(dir, {}, { isolation }), {
      loopId: "sandboxed-check",
      workspace: dir,
      extraEnv: {},
    });
    expect(result.score).toBeCloseTo(4 / 7, 5);
    expect(result.tests).toMatchObject({ passed: 4, failed: 3, counted: true });
    expect(result.tests!.warnings.join(" ")).not.toMatch(/not written/);
    expect(result.tests!.failures).toHaveLength(3);
  }, 180_000);
});

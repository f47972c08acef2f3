// The baseline is taken when the app builds a stored loop's ports (createLoopPorts), before iteration 1,
// on SQLite and PostgreSQL, on a real git repository: a check that cannot run at all on the base commit
// (its command missing, the runner its test script names not installed) stops the loop at iteration 0
// with the reason; a baseline whose tests fail is the work to do, and the loop runs and completes.
import { join } from "node:path";
import { afterAll, afterEach, expect, it, vi } from "vitest";
import { describeEachProvider } from "../../test/db-providers";
import { asOperator, createHarness, type Harness } from "../../test/runtime-harness";
import { writeProject } from "../agents/fixtures/graded-loop";
import { tempRoot } from "../agents/fixtures/harness";
import { createLoop } from "./loop-create.service";
import { createLoopPorts } from "./ports-factory";

const tmp = tempRoot("ralph-baseline-db-");
vi.stubEnv("RALPH_DATA_DIR", join(tmp.root, "data"));
// The check's sandbox is covered by the sandbox suites; here it is the loop's start that matters.
vi.stubEnv("RALPH_AGENT_SANDBOX", "off");
afterAll(() => tmp.cleanup());

const project = (testScript: string) => ({
  "package.json": JSON.stringify({ name: "p", private: true, scripts: { test: testScript } }),
  "src/math.js": "exports.add = (a, b) => a - b;\n",
  "test/math.test.js": `const test = require("node:test");\nconst assert = require("node:assert");\nconst { add } = require("../src/math.js");\ntest("add adds", () => assert.strictEqual(add(2, 3), 5));\n`,
  "agent.sh": `#!/usr/bin/env bash\nsed -i 's/a - b/a + b/' src/math.js\necho "<promise>COMPLETE</promise>"\n`,
});

describeEachProvider("the baseline before iteration 1", ({ db, kind }) => {
  let h: Harness | undefined;
  afterEach(async () => h?.stop());

  async function run(name: string, testScript: string, argv: string[]) {
    const repo = writeProject(join(tmp.root, `${name}-${kind}`), project(testScript));
    h = createHarness(db(), {});
    h.runtime.ports = createLoopPorts;
    const { id } = await createLoop(
      h.services,
      {
        goal: "Make the tests pass",
        agentKind: "command",
        definition: {
          workspace: repo,
          agent: { kind: "command", argv: ["./agent.sh"], timeoutSeconds: 30 },
          scorers: [{ kind: "command-check", name: "tests", argv, timeoutSeconds: 60 }],
        },
        engineConfig: { stop: { maxIterations: 3, scoreThreshold: 1 }, completion: { evidence: ["score"] } },
        start: true,
      },
      asOperator(),
    );
    await h.dispatcher.idle();
    const rows = await db().prisma.iteration.findMany({ where: { loopId: id } });
    const loop = await db().prisma.loop.findUniqueOrThrow({ where: { id } });
    return { rows, loop };
  }

  it("a check whose command does not exist stops the loop at iteration 0, saying so", async () => {
    const { rows, loop } = await run("missing", "node --test", ["no-such-runner-xyz", "--run"]);
    expect(rows).toHaveLength(0);
    expect(loop.status).toBe("failed");
    expect(loop.stopReason).toMatch(
      /^cannot run this loop: the baseline of check "tests" is unusable: .*no-such-runner-xyz/,
    );
  }, 120_000);

  it("a test script naming a runner that is not installed (exit 127) stops the loop at iteration 0", async () => {
    const { rows, loop } = await run("not-installed", "no-such-runner-xyz test/", ["npm", "test"]);
    expect(rows).toHaveLength(0);
    expect(loop.status).toBe("failed");
    expect(loop.stopReason).toContain("the check's command was not found on the base commit (exit 127)");
  }, 120_000);

  it("a baseline whose test fails is the work: the loop runs and completes at iteration 1", async () => {
    const { rows, loop } = await run("failing", "node --test", ["npm", "test"]);
    expect(loop.status).toBe("completed");
    expect(rows).toHaveLength(1);
  }, 120_000);
});

// A command check's test evidence (counts, failing tests with their names and
// messages) is stored with the iteration's score and read back intact.
import { afterAll, afterEach, expect, it } from "vitest";
import { describeEachProvider } from "../../test/db-providers";
import { asOperator, createHarness, improvingAgent, type Harness } from "../../test/runtime-harness";
import { tempRoot, testDeps } from "../agents/fixtures/harness";
import { copyProject } from "../agents/fixtures/runner-projects";
import { createScorers } from "../agents/registry";
import { createLoop } from "../loops/loop-create.service";

const tmp = tempRoot("ralph-evidence-");
afterAll(() => tmp.cleanup());
const SPECIAL = `<a href="x">&amp; 'q'</a> > 5 & "ok"`;

describeEachProvider("test evidence on the iteration", ({ db, kind }) => {
  let h: Harness | undefined;
  afterEach(async () => h?.stop());

  it("stores the counts and the failing tests, special characters and unicode names intact", async () => {
    const workspace = copyProject("vitest", tmp.root, `vitest-${kind}`);
    // The sample project's node_modules links into the app folder, which the sandbox hides.
    const scorers = createScorers([{ kind: "command-check", name: "tests", argv: ["npm", "test"] }], {
      ...testDeps(tmp.root),
      workspaceDir: () => workspace,
    });
    h = createHarness(db(), { improving: improvingAgent(9) }, { scorers });
    const { id } = await createLoop(
      h.services,
      {
        goal: "make the tests pass",
        agentKind: "improving",
        definition: { agent: { kind: "improving" } },
        engineConfig: { stop: { maxIterations: 2 }, validation: { timeout: 120 } },
        start: true,
      },
      asOperator(),
    );
    await h.dispatcher.idle();
    const rows = await db().prisma.iteration.findMany({ where: { loopId: id }, orderBy: { number: "asc" } });
    expect(rows).toHaveLength(2);
    const cell = (rows[0]!.scores as Record<string, { score: number; reason: string; tests: Record<string, unknown> }>)
      .tests!;
    expect(cell.score).toBe(4 / 7);
    expect(cell.tests).toMatchObject({
      passed: 4,
      failed: 3,
      skipped: 1,
      counted: true,
      runner: "vitest",
      format: "json",
    });
    expect(cell.tests.failures).toEqual([
      { name: "calculator > edge cases > plain failure", file: "sample.spec.js", message: expect.any(String) },
      { name: "strings > ünïcödé 名前 fails", file: "sample.spec.js", message: expect.any(String) },
      { name: "strings > special chars in the message", file: "sample.spec.js", message: `Error: ${SPECIAL}` },
    ]);
    // The next iteration was told which tests failed.
    expect(rows[1]!.input).toContain("[Failing tests]");
    expect(rows[1]!.input).toContain("- strings > ünïcödé 名前 fails (sample.spec.js)");
    expect(rows[1]!.input).toContain(SPECIAL);
  }, 120_000);
});

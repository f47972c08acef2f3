import { describe, expect, it } from "vitest";
import { checkFeedback } from "./learn-plan";
import { composeInput } from "./next-input";
import type { ScorerPort, TestEvidence } from "./ports";
import { runLoop } from "./runner";
import { emptyPlan } from "./snapshot";
import { FakeClock, ScriptedAgent } from "../../test/engine-fakes";
import { testsSectionBody } from "./test-feedback";

const evidence = (over: Partial<TestEvidence> = {}): TestEvidence => ({
  passed: 4,
  failed: 3,
  skipped: 1,
  errored: 0,
  failures: [
    { name: "math > plain failure", file: "a.test.js", message: "expected 1 to be 2\nmore detail" },
    { name: "ünïcödé 名前 fails" },
    { name: "special chars", message: `<a href="x">&amp; 'q'</a> > 5 & "ok"` },
  ],
  moreFailures: 0,
  format: "json",
  runner: "vitest",
  counted: true,
  exitCode: 1,
  warnings: [],
  ...over,
});

describe("failing tests in the next input", () => {
  it("names each failing test with its file and the first line of its message", () => {
    expect(testsSectionBody([{ check: "tests", score: 4 / 7, ...evidence({ moreFailures: 2 }) }])).toBe(
      [
        "tests: 3 of 7 failed, 1 skipped (vitest, exit 1)",
        "- math > plain failure (a.test.js): expected 1 to be 2",
        "- ünïcödé 名前 fails",
        `- special chars: <a href="x">&amp; 'q'</a> > 5 & "ok"`,
        "- … and 2 more failing",
      ].join("\n"),
    );
    const crash = evidence({ passed: 0, failed: 0, errored: 0, failures: [], counted: false, error: "SyntaxError: x" });
    expect(testsSectionBody([{ check: "tests", score: 0, ...crash, warnings: ["report not understood"] }])).toBe(
      "tests: no complete test report (vitest, exit 1)\n- the run itself failed: SyntaxError: x\n- note: report not understood",
    );
  });

  it("only checks short of a clean pass are fed back", () => {
    const clean = evidence({ passed: 7, failed: 0, failures: [], exitCode: 0 });
    const fed = checkFeedback({ a: evidence(), b: clean }, { a: 4 / 7, b: 1 });
    expect(fed.map((c) => c.check)).toEqual(["a"]);
    expect(checkFeedback(undefined, {})).toEqual([]);
  });

  it("sits right after the previous feedback", () => {
    const plan = {
      ...emptyPlan(),
      feedback: ["try again"],
      validation: ["bad"],
      tests: [{ check: "t", score: 0.5, ...evidence() }],
    };
    const input = composeInput("Goal", { plan, nudges: [], approvalComments: [], reminders: [] });
    expect(input.indexOf("[Previous feedback]")).toBeLessThan(input.indexOf("[Failing tests]"));
    expect(input.indexOf("[Failing tests]")).toBeLessThan(input.indexOf("[Validation]"));
  });

  it("a scorer's test evidence is recorded on the iteration and reaches the next agent's input", async () => {
    const clock = new FakeClock();
    const agent = new ScriptedAgent([{}, {}], clock);
    const scorer: ScorerPort = { name: "tests", score: () => ({ score: 4 / 7, reason: "4/7", tests: evidence() }) };
    const out = await runLoop({
      goal: "g",
      config: { stop: { maxIterations: 2 }, reflection: { enabled: false } },
      ports: { agent, scorers: [scorer] },
      deps: clock,
    });
    expect(out.records[0]!.tests).toEqual({ tests: evidence() });
    expect(agent.requests[1]!.input).toContain(
      "[Failing tests]\ntests: 3 of 7 failed, 1 skipped (vitest, exit 1)\n- math > plain failure",
    );
    expect(out.records[0]!.scores).toEqual({ tests: 4 / 7 });
  });
});

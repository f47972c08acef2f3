import { describe, expect, it } from "vitest";
import type { Evidence } from "./analyze";
import { rejectedClaimNotice } from "./learn-plan";
import { capBody, COMPLETION_PROTOCOL, composeInput, inputSections, retryInput, SECTION_CHARS } from "./next-input";
import type { InputParts } from "./next-input";
import { emptyPlan, type CheckFeedback, type PlanParts } from "./snapshot";

const note = (text: string) => ({ text, by: "a", at: 0 });
const failingCheck: CheckFeedback = {
  check: "tests",
  score: 0.5,
  passed: 1,
  failed: 1,
  skipped: 0,
  errored: 0,
  failures: [{ name: "adds", file: "math.test.mjs", message: "expected 3, got -1" }],
  moreFailures: 0,
  format: "tap",
  runner: null,
  counted: true,
  exitCode: 1,
  warnings: [],
};
const parts = (plan: Partial<PlanParts>, rest: Partial<InputParts> = {}): InputParts => ({
  plan: { ...emptyPlan(), ...plan },
  nudges: [],
  approvalComments: [],
  reminders: [],
  ...rest,
});

describe("next input format", () => {
  it.each<[string, InputParts, string[]]>([
    ["the goal alone when there is nothing to add", parts({}), ["Goal"]],
    [
      "the protocol right after the goal",
      parts({}, { protocol: COMPLETION_PROTOCOL }),
      ["Goal", `[Completion protocol]\n${COMPLETION_PROTOCOL}`],
    ],
    [
      "failing tests with file and message, whatever the mean score",
      parts({ tests: [failingCheck] }),
      ["Goal", "[Failing tests]\ntests: 1 of 2 failed (tap, exit 1)\n- adds (math.test.mjs): expected 3, got -1"],
    ],
    [
      "a rejected claim before the rest of the evidence",
      parts({ rejectedClaim: "claimed, rejected", verifier: "still wrong" }),
      ["Goal", "[Claim rejected]\nclaimed, rejected", "[Verifier]\nstill wrong"],
    ],
  ])("is %s", (_name, input, blocks) => {
    expect(composeInput("Goal", input)).toBe(blocks.join("\n\n"));
  });

  it("orders every section as documented", () => {
    const input = composeInput(
      "Goal",
      parts(
        {
          rejectedClaim: "no",
          question: "Strings too?",
          feedback: ["be direct"],
          validation: ["missing x"],
          verifier: "tests fail",
          continuation: "## Handoff from Iteration 1",
          handoffTrigger: "explicit_request",
          tests: [{ ...failingCheck, failures: [{ name: "adds" }] }],
        },
        {
          protocol: "P",
          nudges: [note("look at api.ts")],
          approvalComments: [note("add docs")],
          reminders: ["REMINDER: ..."],
        },
      ),
    );
    expect(input).toBe(
      [
        "Goal",
        "[Completion protocol]\nP",
        "[Claim rejected]\nno",
        "[Agent question]\nYour previous message asked:\n> Strings too?\nNo operator is answering. Make a reasonable choice, state it, and continue.",
        "[Previous feedback]\n- be direct",
        "[Failing tests]\ntests: 1 of 2 failed (tap, exit 1)\n- adds",
        "[Validation]\n- missing x",
        "[Verifier]\ntests fail",
        "[Operator nudge]\n- look at api.ts",
        "[Approval comment]\n- add docs",
        "[Health reminder]\n- REMINDER: ...",
        "[Continuation]\n## Handoff from Iteration 1",
      ].join("\n\n"),
    );
    expect(inputSections).toHaveLength(11);
    expect(retryInput("In", 2, ["boom"])).toBe("In\n\n[Retry]\nAttempt 2. Earlier attempts failed:\n- boom");
  });

  it("caps each section with a visible marker, never the goal", () => {
    const goal = "G".repeat(SECTION_CHARS * 2);
    const flood = "v".repeat(SECTION_CHARS * 3);
    const input = composeInput(goal, parts({ verifier: flood }));
    const body = input.slice(goal.length + "\n\n[Verifier]\n".length);
    expect(input.startsWith(goal)).toBe(true);
    expect(body.length).toBeLessThanOrEqual(SECTION_CHARS);
    expect(body).toMatch(/… \[truncated \d+ characters\]$/);
    const kept = body.indexOf("\n…");
    expect(kept + Number(/truncated (\d+)/.exec(body)![1])).toBe(flood.length);
    expect(capBody("short")).toBe("short");
  });
});

describe("rejected claim notice", () => {
  const evidence = (complete: boolean | null, checks: Evidence["checks"] = []): Evidence => ({ complete, checks });
  const refuted = { source: "score" as const, complete: false, detail: "mean 0.50 < 1", counted: true };

  it.each<[string, { done: boolean; text?: string }, Evidence, string | null]>([
    ["no claim", { done: false }, evidence(false, [refuted]), null],
    ["a claim the evidence confirmed", { done: true }, evidence(true), null],
    [
      "a claim the evidence refuted",
      { done: true, text: "COMPLETE" },
      evidence(false, [refuted]),
      'The previous iteration claimed the goal was complete ("COMPLETE"), and the claim was rejected. ' +
        "The evidence does not confirm it:\n- score: mean 0.50 < 1\nDo not claim completion again until the evidence passes.",
    ],
    [
      "a claim with no evidence at all",
      { done: true },
      evidence(null),
      "The previous iteration claimed the goal was complete, and the claim was rejected. " +
        "No evidence source could confirm it.\nDo not claim completion again until the evidence passes.",
    ],
  ])("%s", (_name, claim, ev, expected) => {
    expect(rejectedClaimNotice(claim, ev)).toBe(expected);
  });
});

import { describe, expect, it } from "vitest";
import { composeInput, inputSections, retryInput } from "./next-input";
import { emptyPlan } from "./snapshot";

describe("next input format", () => {
  it("is the goal alone when there is nothing to add", () => {
    expect(composeInput("Goal", { plan: emptyPlan(), nudges: [], approvalComments: [], reminders: [] })).toBe("Goal");
  });

  it("orders every section as documented", () => {
    const note = (text: string) => ({ text, by: "a", at: 0 });
    const input = composeInput("Goal", {
      plan: { feedback: ["be direct"], validation: ["missing x"], verifier: "tests fail", continuation: "## Handoff from Iteration 1", handoffTrigger: "explicit_request" },
      nudges: [note("look at api.ts")],
      approvalComments: [note("add docs")],
      reminders: ["REMINDER: ..."],
    });
    expect(input).toBe(
      [
        "Goal",
        "[Previous feedback]\n- be direct",
        "[Validation]\n- missing x",
        "[Verifier]\ntests fail",
        "[Operator nudge]\n- look at api.ts",
        "[Approval comment]\n- add docs",
        "[Health reminder]\n- REMINDER: ...",
        "[Continuation]\n## Handoff from Iteration 1",
      ].join("\n\n"),
    );
    expect(inputSections).toHaveLength(7);
    expect(retryInput("In", 2, ["boom"])).toBe("In\n\n[Retry]\nAttempt 2. Earlier attempts failed:\n- boom");
  });
});

import { describe, expect, it } from "vitest";
import { joinParts, promptParts } from "./prompt-sections";

const INPUT = [
  "Make ./test.sh pass",
  "",
  "[Completion protocol]",
  "When, and only when, the goal is fully achieved, end with <promise>COMPLETE</promise>.",
  "",
  "[Failing tests]",
  "not ok 1 - add",
  "  [expected] 5",
  "",
  "[Agent question]",
  "Your previous message asked:",
  "> Should add() also accept strings?",
].join("\n");

describe("composed prompt sections", () => {
  it("names each section in order, the goal first", () => {
    expect(promptParts(INPUT).map((p) => p.name)).toEqual([
      "Goal",
      "Completion protocol",
      "Failing tests",
      "Agent question",
    ]);
    expect(promptParts(INPUT)[2]!.body).toContain("  [expected] 5");
  });

  it("joins back to exactly the prompt the agent received", () => {
    expect(joinParts(promptParts(INPUT))).toBe(INPUT);
    expect(joinParts(promptParts("just a goal"))).toBe("just a goal");
    expect(joinParts(promptParts(""))).toBe("");
    expect(joinParts(promptParts("goal\n\n[Retry]\nAttempt 2."))).toBe("goal\n\n[Retry]\nAttempt 2.");
  });

  it("a bracketed line inside a body is not a heading unless a blank line precedes it", () => {
    const parts = promptParts("goal\n\n[Verifier]\nthe log said\n[Verifier]\nagain");
    expect(parts.map((p) => p.name)).toEqual(["Goal", "Verifier"]);
  });
});

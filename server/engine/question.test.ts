import { describe, expect, it } from "vitest";
import { detectQuestion } from "./question";

describe("asked-a-question detection", () => {
  it.each<[string, string, string | null]>([
    [
      "a direct question",
      "I looked at math.js.\n\nShould add() also accept strings? Please confirm.",
      "Should add() also accept strings? Please confirm.",
    ],
    ["a trailing question mark", "Done with the parser.\n\nWhich database do you use?", "Which database do you use?"],
    ["blocked", "I am blocked on the missing API key.", "I am blocked on the missing API key."],
    ["would you like", "Would you like me to refactor the tests too", "Would you like me to refactor the tests too"],
    ["a report with an earlier rhetorical question", "Why did it fail? A typo.\n\nFixed the typo; tests pass.", null],
    ["a completion claim", "All tests pass.\n<promise>COMPLETE</promise>", null],
    ["empty output", "", null],
  ])("%s", (_name, output, expected) => {
    expect(detectQuestion(output)).toBe(expected);
  });
});

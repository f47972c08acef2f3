import { describe, expect, it } from "vitest";
import { formatTokens } from "@/components/loops/format";
import { evidenceOutcomeText, firstErrorLine, tokenText } from "./row-text";

describe("firstErrorLine", () => {
  it.each<[string | null, string | null]>([
    [null, null],
    ["", null],
    ["\n  \n", null],
    ["boom", "boom"],
    [
      "\n  environment variable ANTHROPIC_API_KEY is not set\n    at run (agent.ts:3)",
      "environment variable ANTHROPIC_API_KEY is not set",
    ],
    ["a\r\nb", "a"],
  ])("%j → %j", (error, line) => expect(firstErrorLine(error)).toBe(line));

  it("cuts a long line with an ellipsis", () => {
    const line = firstErrorLine("x".repeat(500), 20)!;
    expect(line).toHaveLength(20);
    expect(line.endsWith("…")).toBe(true);
  });
});

describe("tokenText", () => {
  it("names cache tokens only when there were any", () => {
    expect(tokenText({ tokensIn: 1200, tokensOut: 340, tokensCache: 0 }, formatTokens)).toBe("1.2k in · 340 out");
    expect(tokenText({ tokensIn: 5, tokensOut: 1, tokensCache: 5000 }, formatTokens)).toBe("5 in · 1 out · 5.0k cache");
  });
});

describe("evidenceOutcomeText", () => {
  it.each<[number | null, number | null, number | null | undefined, string]>([
    [0.6, 2, 0.4, "improved 0.40 → 0.60; 2 tests still failing"],
    [0.6, 1, 0.4, "improved 0.40 → 0.60; 1 test still failing"],
    [0.3, 0, 0.5, "dropped 0.50 → 0.30; evidence says not done"],
    [0.5, null, 0.5, "no change at 0.50; evidence says not done"],
    [0.5, 3, undefined, "score 0.50; 3 tests still failing"],
    [null, null, 0.5, "not scored; evidence says not done"],
  ])("score %s, %s failing, previous %s: %s", (meanScore, failingTests, previous, text) => {
    expect(evidenceOutcomeText({ meanScore, failingTests }, previous)).toBe(text);
  });
});

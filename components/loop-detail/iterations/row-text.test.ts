import { describe, expect, it } from "vitest";
import { formatTokens } from "@/components/loops/format";
import { firstErrorLine, tokenText } from "./row-text";

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

import { describe, expect, it } from "vitest";
import { SCORER_COLORS, SERIES_COLORS, scorerColor, TOKEN_COLORS } from "./chart-theme";

describe("chart palette", () => {
  it("gives every fixed series its own colour, and scorers none of them", () => {
    const fixed = Object.values(SERIES_COLORS);
    expect(new Set(fixed).size).toBe(fixed.length);
    expect(new Set(SCORER_COLORS).size).toBe(SCORER_COLORS.length);
    for (const c of SCORER_COLORS) expect(fixed).not.toContain(c);
  });

  it("keeps the first scorer apart from 'best so far' and the mean", () => {
    expect(scorerColor(0)).not.toBe(SERIES_COLORS.best);
    expect(scorerColor(0)).not.toBe(SERIES_COLORS.mean);
    expect(scorerColor(SCORER_COLORS.length)).toBe(scorerColor(0));
  });

  it("stacks tokens in three different colours", () => {
    expect(new Set(Object.values(TOKEN_COLORS)).size).toBe(3);
  });
});

import { describe, expect, it } from "vitest";
import { point, scored } from "../../test/chart-fixtures";
import { formatPerDollar, scorePerDollar } from "./score-per-dollar";

describe("scorePerDollar", () => {
  it("plots the best score against cumulative spend, counting every attempt", () => {
    const r = scorePerDollar([
      scored(1, 0.2, { costUsd: 0.5 }),
      point(2, { costUsd: 0.25, status: "interrupted" }),
      scored(2, 0.6, { costUsd: 0.25, attempt: 2 }),
      scored(3, 0.4, { costUsd: 0.5 }),
    ]);
    expect(r.rows).toEqual([
      { iteration: 1, spent: 0.5, best: 0.2 },
      { iteration: 2, spent: 1, best: 0.6 },
      { iteration: 3, spent: 1.5, best: 0.6 },
    ]);
    // 0.4 gained for the $1 spent after the first scored iteration.
    expect(r.overall).toBeCloseTo(0.4, 10);
    expect(r.recent).toBeNull();
  });

  it("shows diminishing returns over the last iterations", () => {
    const means = [0.1, 0.5, 0.7, 0.8, 0.8, 0.8, 0.8, 0.8, 0.81];
    const r = scorePerDollar(
      means.map((m, i) => scored(i + 1, m, { costUsd: 1 })),
      5,
    );
    expect(r.overall).toBeCloseTo(0.71 / 8, 10);
    expect(r.recent).toBeCloseTo(0.01 / 5, 10);
  });

  it("says nothing without a score or without spend", () => {
    expect(scorePerDollar([point(1, { costUsd: 1 })]).overall).toBeNull();
    expect(scorePerDollar([scored(1, 0.5), scored(2, 0.9)]).overall).toBeNull();
  });
});

describe("formatPerDollar", () => {
  it.each<[number | null, string]>([
    [null, "—"],
    [0, "0 per $"],
    [0.0123456, "+0.0123 per $"],
    [-2.5, "−2.5 per $"],
    [1234.5, "+1235 per $"],
  ])("%s → %s", (rate, text) => expect(formatPerDollar(rate)).toBe(text));
});

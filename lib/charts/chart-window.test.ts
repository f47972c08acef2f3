import { describe, expect, it } from "vitest";
import { costScale, iterationWindow, zoomWindow } from "./chart-window";

const usd = (n: number) => `$${n}`;

describe("iterationWindow", () => {
  it.each<[number[], [number, number], number[]]>([
    [[], [0, 1], []],
    [[1], [0.5, 2], [1]],
    [
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
      [0.5, 11],
      [1, 3, 5, 7, 9],
    ],
    [
      [1, 40],
      [0.5, 44],
      [1, 6, 11, 16, 21, 26, 31, 36],
    ],
  ])("%j → domain %j", (iterations, domain, ticks) => {
    const w = iterationWindow(iterations);
    expect(w.domain).toEqual(domain);
    expect(w.ticks).toEqual(ticks);
    expect(w.edge).toBe(domain[1]);
  });

  it("ignores the iteration limit: the range ends near the last iteration", () => {
    expect(iterationWindow([1, 2, 3]).edge).toBe(4);
  });
});

describe("costScale", () => {
  it.each<[string, number, number | null, { top: number; budgetLine: number | null; offScaleLabel: string | null }]>([
    ["no budget fits the spend", 0.1, null, { top: 0.115, budgetLine: null, offScaleLabel: null }],
    ["a budget near the spend is drawn", 0.1, 0.2, { top: 0.216, budgetLine: 0.2, offScaleLabel: null }],
    [
      "a far budget is named off scale",
      0.1,
      20,
      { top: 0.115, budgetLine: null, offScaleLabel: "budget $20 ↑ off scale" },
    ],
    [
      "before any spend, a small scale",
      0,
      20,
      { top: 0.01, budgetLine: null, offScaleLabel: "budget $20 ↑ off scale" },
    ],
    ["spend above the budget keeps the line", 0.0165, 0.015, { top: 0.018975, budgetLine: 0.015, offScaleLabel: null }],
  ])("%s", (_name, drawn, budget, expected) => {
    const scale = costScale(drawn, budget, usd);
    expect(scale.top).toBeCloseTo(expected.top, 9);
    expect(scale.budgetLine).toBe(expected.budgetLine);
    expect(scale.offScaleLabel).toBe(expected.offScaleLabel);
  });
});

describe("zoomWindow", () => {
  it("spans exactly the window, with at most nine ticks inside it", () => {
    const w = zoomWindow(1200, 1300);
    expect(w.domain).toEqual([1199.5, 1300.5]);
    expect(w.ticks[0]).toBe(1200);
    expect(w.ticks.length).toBeLessThanOrEqual(9);
    expect(Math.max(...w.ticks)).toBeLessThanOrEqual(1300);
    expect(zoomWindow(5, 5).ticks).toEqual([5]);
  });
});

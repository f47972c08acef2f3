import { describe, expect, it } from "vitest";
import { applyConfigPatch, parseLoopConfig } from "../engine";
import { limitsInEffect } from "./limits-in-effect";

describe("limits in effect", () => {
  const stored = { stop: { maxIterations: 80, maxCost: 0.015 } };
  const byKey = (limits: ReturnType<typeof limitsInEffect>) => Object.fromEntries(limits.map((l) => [l.key, l]));

  it("an operator edit shows the new value, marked, with the original", () => {
    const edited = applyConfigPatch(parseLoopConfig(stored), {
      stop: { maxIterations: 40 },
      budget: { maxCostUsd: 2 },
    });
    const limits = byKey(limitsInEffect(edited, stored));
    expect(limits["stop.maxIterations"]).toMatchObject({ value: 40, original: 80, edited: true });
    expect(limits["budget.maxCostUsd"]).toMatchObject({ value: 2, original: 0, edited: true });
    expect(limits["stop.maxCost"]).toMatchObject({ value: 0.015, original: 0.015, edited: false });
  });

  it.each<[string, ReturnType<typeof parseLoopConfig> | null, unknown]>([
    ["before the first step, the stored definition holds", null, stored],
    ["no stored section: nothing is called edited", parseLoopConfig(stored), undefined],
    [
      "an unreadable stored section: nothing is called edited",
      parseLoopConfig(stored),
      { stop: { maxIterations: -1 } },
    ],
  ])("%s", (_name, inEffect, storedLoop) => {
    const limits = limitsInEffect(inEffect, storedLoop);
    expect(limits.every((l) => !l.edited)).toBe(true);
    expect(byKey(limits)["stop.maxIterations"]!.value).toBe(80);
  });
});

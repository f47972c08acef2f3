import { describe, expect, it } from "vitest";
import { minutes, nudgeMessage } from "./health";

describe("health texts", () => {
  it.each([
    [0, "0 s"],
    [20_000, "20 s"],
    [59_400, "59 s"],
    [90_000, "2 min"],
    [30 * 60_000, "30 min"],
    [150 * 60_000, "2.5 h"],
  ])("%d ms reads %s", (ms, text) => {
    expect(minutes(ms)).toBe(text);
  });

  it("a short stall never reads 0 min", () => {
    expect(nudgeMessage(20_000)).toContain("working for 20 s without progress");
  });
});

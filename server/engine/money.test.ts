import { describe, expect, it } from "vitest";
import { usd } from "./money";

describe("usd", () => {
  it.each<[number, string]>([
    [0, "$0.00"],
    [0.0165, "$0.0165"],
    [0.015, "$0.015"],
    [0.1, "$0.10"],
    [0.123456, "$0.1235"],
    [0.00001234, "$0.00001234"],
    [1, "$1.00"],
    [12.345, "$12.35"],
    [-0.0015, "-$0.0015"],
  ])("%s → %s", (value, text) => expect(usd(value)).toBe(text));
});

import { describe, expect, it } from "vitest";
import { keepNewerLoop } from "./newer-loop";

const detail = (iteration: number, status = "running", id = "L") => ({ loop: { id, iteration, status }, series: [] });

describe("keepNewerLoop", () => {
  it("drops a running loop's answer that is older than what the page shows", () => {
    const shown = detail(50);
    expect(keepNewerLoop(shown, detail(49))).toBe(shown);
  });

  it("takes everything else: newer, equal, a status change, another loop, other data", () => {
    const next = detail(51);
    expect(keepNewerLoop(detail(50), next)).toBe(next);
    const paused = detail(49, "paused");
    expect(keepNewerLoop(detail(50), paused)).toBe(paused);
    const other = detail(1, "running", "M");
    expect(keepNewerLoop(detail(50), other)).toBe(other);
    expect(keepNewerLoop([1], [2])).toEqual([2]);
    expect(keepNewerLoop(undefined, detail(3))).toEqual(detail(3));
  });
});

import { describe, expect, it } from "vitest";
import { downsample, linearScale, linePath, niceTicks, runningBest } from "./svg-geometry";

describe("svg geometry", () => {
  it("maps a domain onto a range, also inverted (SVG's y grows downwards)", () => {
    const y = linearScale([0, 1], [100, 0]);
    expect([y(0), y(0.5), y(1)]).toEqual([100, 50, 0]);
    expect(linearScale([3, 3], [0, 10])(3)).toBe(5);
  });

  it("makes round ticks", () => {
    expect(niceTicks(0, 1, 5)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(niceTicks(0, 37, 4)).toEqual([0, 10, 20, 30]);
    expect(niceTicks(2, 2)).toEqual([2]);
  });

  it("breaks a line at missing values", () => {
    const id = (v: number) => v;
    expect(
      linePath(
        [
          { x: 0, y: 1 },
          { x: 1, y: 2 },
          { x: 2, y: null },
          { x: 3, y: 4 },
        ],
        id,
        id,
      ),
    ).toBe("M0,1L1,2M3,4");
  });

  it("downsamples evenly and keeps the last item", () => {
    expect(downsample([1, 2, 3, 4, 5, 6, 7, 8, 9], 3)).toEqual([1, 5, 9]);
    expect(downsample([1, 2], 5)).toEqual([1, 2]);
  });

  it("computes the running best", () => {
    expect(runningBest([null, 0.2, 0.1, null, 0.5])).toEqual([null, 0.2, 0.2, 0.2, 0.5]);
  });
});

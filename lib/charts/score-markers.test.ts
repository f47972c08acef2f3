import { describe, expect, it } from "vitest";
import { point, scored } from "../../test/chart-fixtures";
import { scoreMarkers } from "./score-markers";

const series = (means: (number | null)[]) =>
  means.map((m, i) => (m === null ? point(i + 1, { status: "error" }) : scored(i + 1, m)));
const brief = (means: (number | null)[], options = {}) =>
  scoreMarkers(series(means), options).map((m) =>
    m.kind === "plateau" ? `plateau ${m.from}-${m.to}` : `regression ${m.iteration}`,
  );

describe("scoreMarkers", () => {
  it.each<[string, (number | null)[], object, string[]]>([
    ["nothing while every iteration improves", [0.1, 0.2, 0.3, 0.4], {}, []],
    ["nothing before any score", [null, null], {}, []],
    ["a plateau once the run reaches the limit", [0.5, 0.5, 0.5, 0.5], { plateauAfter: 3 }, ["plateau 2-4"]],
    ["a plateau's span grows while it lasts", [0.5, 0.5, 0.5, 0.5, 0.49, 0.5], { plateauAfter: 3 }, ["plateau 2-6"]],
    [
      "a new best ends a plateau; a later run is a new one",
      [0.5, 0.5, 0.5, 0.6, 0.6, 0.6],
      { plateauAfter: 2 },
      ["plateau 2-3", "plateau 5-6"],
    ],
    ["improvements below epsilon are not a new best", [0.5, 0.501, 0.502, 0.503], { plateauAfter: 3 }, ["plateau 2-4"]],
    [
      "unscored iterations neither count nor break a plateau",
      [0.5, null, 0.5, null, 0.5],
      { plateauAfter: 2 },
      ["plateau 3-5"],
    ],
    ["a sharp drop from the previous iteration", [0.8, 0.6], {}, ["regression 2"]],
    ["a drop just under the threshold is not one", [0.8, 0.71], {}, []],
    ["a slow slide below the best, marked once", [0.8, 0.75, 0.7, 0.65, 0.6], { plateauAfter: 9 }, ["regression 3"]],
    ["a recovery re-arms the slide", [0.8, 0.7, 0.79, 0.7], { plateauAfter: 9 }, ["regression 2", "regression 4"]],
    [
      "each sharp drop is its own regression",
      [0.8, 0.65, 0.74, 0.5],
      { regressionDrop: 0.15, plateauAfter: 9 },
      ["regression 2", "regression 4"],
    ],
  ])("%s", (_name, means, options, expected) => {
    expect(brief(means, options)).toEqual(expected);
  });

  it("labels say what happened", () => {
    const [regression] = scoreMarkers(series([0.74, 0.5]));
    expect(regression?.label).toBe("mean fell 0.74 → 0.50");
    const slide = scoreMarkers(series([0.8, 0.75, 0.7]), { plateauAfter: 9 });
    expect(slide[0]?.label).toBe("mean 0.70, 0.10 below the best 0.80");
    const plateau = scoreMarkers(series([0.5, 0.5, 0.5, 0.5, 0.5]), { plateauAfter: 2 });
    expect(plateau[0]?.label).toBe("no new best for 4 iterations");
  });

  it("takes a bucketed point's best from its whole span", () => {
    const bucket = {
      ...scored(10, 0.4),
      span: { from: 1, to: 10, attempts: 10, failures: 0, handoffs: 0, minScore: 0.1, maxScore: 0.9 },
    };
    // The bucket's best is 0.9: the next point at 0.5 is 0.4 below it.
    expect(scoreMarkers([bucket, scored(20, 0.5)]).map((m) => m.kind)).toEqual(["regression"]);
  });
});

describe("scoreMarkers on downsampled points", () => {
  const spanned = (to: number, from: number, mean: number, maxScore = mean) => ({
    ...scored(to, mean),
    span: { from, to, attempts: to - from + 1, failures: 0, handoffs: 0, minScore: mean, maxScore },
  });

  it("counts a plateau in iterations: two points of 100 iterations each are a plateau of 200", () => {
    const markers = scoreMarkers([spanned(100, 1, 0.5), spanned(200, 101, 0.5), spanned(300, 201, 0.5)], {
      plateauAfter: 150,
    });
    expect(markers).toEqual([
      expect.objectContaining({ kind: "plateau", from: 101, to: 300, label: "no new best for 200 iterations" }),
    ]);
  });

  it("marks no plateau while the points' spans add up to less than the limit", () => {
    expect(
      scoreMarkers([spanned(10, 1, 0.5), spanned(20, 11, 0.5), spanned(30, 21, 0.5)], { plateauAfter: 25 }),
    ).toEqual([]);
  });
});

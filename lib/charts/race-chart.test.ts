// The race chart's rows: one per iteration number up to the longest contender, a contender's cell
// null where it has no finished iteration; killed attempts left out, re-runs replacing them.
import { describe, expect, it } from "vitest";
import { contenderColor, prepareRaceChart, type RacePoint } from "./race-chart";

const p = (number: number, meanScore: number | null, status = "succeeded", attempt = 1): RacePoint => ({
  number,
  attempt,
  status,
  meanScore,
});

describe("prepareRaceChart", () => {
  const cases: {
    name: string;
    input: Parameters<typeof prepareRaceChart>[0];
    want: ReturnType<typeof prepareRaceChart>;
  }[] = [
    { name: "no contenders", input: [], want: [] },
    { name: "contenders without iterations", input: [{ id: "a", points: [] }], want: [] },
    {
      name: "unequal lengths pad with null",
      input: [
        { id: "a", points: [p(1, 0), p(2, 1)] },
        { id: "b", points: [p(1, 0), p(2, 0), p(3, 0.5)] },
      ],
      want: [
        { iteration: 1, "c:a": 0, "c:b": 0 },
        { iteration: 2, "c:a": 1, "c:b": 0 },
        { iteration: 3, "c:a": null, "c:b": 0.5 },
      ],
    },
    {
      name: "a killed attempt is left out; its re-run replaces it",
      input: [{ id: "a", points: [p(1, 0.2), p(2, null, "interrupted", 1), p(2, 0.7, "succeeded", 2)] }],
      want: [
        { iteration: 1, "c:a": 0.2 },
        { iteration: 2, "c:a": 0.7 },
      ],
    },
    {
      name: "a loop stopped mid-iteration ends at its last finished one",
      input: [{ id: "a", points: [p(1, 0), p(2, null, "interrupted")] }],
      want: [{ iteration: 1, "c:a": 0 }],
    },
    {
      name: "a failed iteration without a score is a gap",
      input: [{ id: "a", points: [p(1, null, "failed"), p(2, 1)] }],
      want: [
        { iteration: 1, "c:a": null },
        { iteration: 2, "c:a": 1 },
      ],
    },
  ];
  for (const c of cases) it(c.name, () => expect(prepareRaceChart(c.input)).toEqual(c.want));
});

describe("contenderColor", () => {
  it("cycles through the palette", () => {
    expect(contenderColor(0)).toBe(contenderColor(8));
    expect(contenderColor(0)).not.toBe(contenderColor(1));
  });
});

// Cost per verified task, table-driven: spend over verified (completed or landed) outcomes; no
// verified outcome gives null (never zero, never infinity); unverified spend still counts.
import { describe, expect, it } from "vitest";
import { costPerVerified, costPerVerifiedBy, isVerifiedOutcome, type LoopOutcome } from "./cost-per-verified";

const loop = (costUsd: number, status: string, landed?: boolean): LoopOutcome => ({ costUsd, status, landed });

describe("costPerVerified", () => {
  const cases: { name: string; rows: LoopOutcome[]; want: ReturnType<typeof costPerVerified> }[] = [
    { name: "nothing", rows: [], want: { loops: 0, spendUsd: 0, verified: 0, costPerVerifiedUsd: null } },
    {
      name: "one completed loop",
      rows: [loop(0.3, "completed")],
      want: { loops: 1, spendUsd: 0.3, verified: 1, costPerVerifiedUsd: 0.3 },
    },
    {
      name: "spend without a verified outcome",
      rows: [loop(0.5, "failed"), loop(0.25, "stopped")],
      want: { loops: 2, spendUsd: 0.75, verified: 0, costPerVerifiedUsd: null },
    },
    {
      name: "the losers' spend makes the winner's task dearer",
      rows: [loop(0.1, "completed"), loop(0.2, "stopped"), loop(0.3, "stopped")],
      want: { loops: 3, spendUsd: 0.6, verified: 1, costPerVerifiedUsd: 0.6 },
    },
    {
      name: "a landed loop counts whatever its status",
      rows: [loop(0.4, "paused", true), loop(0.2, "completed")],
      want: { loops: 2, spendUsd: 0.6, verified: 2, costPerVerifiedUsd: 0.3 },
    },
    {
      name: "many small costs add up without drift",
      rows: Array.from({ length: 10 }, () => loop(0.1, "completed")),
      want: { loops: 10, spendUsd: 1, verified: 10, costPerVerifiedUsd: 0.1 },
    },
    {
      name: "a negative cost (never stored) counts as nothing",
      rows: [loop(-1, "completed")],
      want: { loops: 1, spendUsd: 0, verified: 1, costPerVerifiedUsd: 0 },
    },
  ];
  for (const c of cases) it(c.name, () => expect(costPerVerified(c.rows)).toEqual(c.want));
});

describe("isVerifiedOutcome", () => {
  const table: [string, boolean | undefined, boolean][] = [
    ["completed", undefined, true],
    ["completed", false, true],
    ["failed", undefined, false],
    ["stopped", true, true],
    ["running", false, false],
    ["needs_attention", undefined, false],
  ];
  for (const [status, landed, want] of table)
    it(`${status}${landed ? " + landed" : ""} → ${want}`, () =>
      expect(isVerifiedOutcome({ status, landed })).toBe(want));
});

describe("costPerVerifiedBy", () => {
  it("groups by key, sorted, leaving out rows without one", () => {
    const rows = [
      { ...loop(1, "completed"), agent: "b" },
      { ...loop(2, "failed"), agent: "a" },
      { ...loop(3, "completed"), agent: "b" },
      { ...loop(9, "completed"), agent: null },
    ];
    expect(costPerVerifiedBy(rows, (r) => r.agent)).toEqual([
      { key: "a", loops: 1, spendUsd: 2, verified: 0, costPerVerifiedUsd: null },
      { key: "b", loops: 2, spendUsd: 4, verified: 2, costPerVerifiedUsd: 2 },
    ]);
  });
});

import { describe, expect, it } from "vitest";
import { EventFrontier } from "./event-frontier";

const pg = (ids: number[], xmin: number, xmax: number) => ({
  ids,
  snapshot: { xmin: BigInt(xmin), xmax: BigInt(xmax) },
});
const lite = (ids: number[]) => ({ ids, snapshot: null });

describe("EventFrontier", () => {
  it("advances through a contiguous run and stays put on an empty window", () => {
    const f = new EventFrontier(10, { graceMs: 500, maxHoldMs: 10_000 });
    expect(f.advance(lite([11, 12, 13]), 0)).toEqual({ through: 13, recheckInMs: null });
    expect(f.advance(lite([]), 1)).toEqual({ through: 13, recheckInMs: null });
  });

  it("steps over a hole at once when there is no grace (SQLite commits in id order)", () => {
    const f = new EventFrontier(0, { graceMs: 0, maxHoldMs: 10_000 });
    expect(f.advance(lite([1, 4, 5]), 0).through).toBe(5);
  });

  it("holds a hole for the grace period and delivers it when it fills", () => {
    const f = new EventFrontier(0, { graceMs: 500, maxHoldMs: 10_000 });
    expect(f.advance(pg([1, 3], 100, 101), 0)).toEqual({ through: 1, recheckInMs: 500 });
    expect(f.advance(pg([3], 100, 101), 200)).toEqual({ through: 1, recheckInMs: 300 });
    expect(f.advance(pg([2, 3], 101, 101), 250)).toEqual({ through: 3, recheckInMs: null });
  });

  it("steps over a rolled-back id after the grace once older transactions have ended", () => {
    const f = new EventFrontier(0, { graceMs: 500, maxHoldMs: 10_000 });
    f.advance(pg([2], 100, 105), 0);
    // Past the grace, but a transaction that was open when the hole appeared
    // (xid < 105) is still running: it may yet commit id 1.
    expect(f.advance(pg([2], 103, 106), 600)).toEqual({ through: 0, recheckInMs: 100 });
    // Every transaction from then has ended and id 1 is still absent: rolled back.
    expect(f.advance(pg([2], 105, 106), 700)).toEqual({ through: 2, recheckInMs: null });
  });

  it("gives up on a hole after maxHoldMs even while old transactions stay open", () => {
    const f = new EventFrontier(0, { graceMs: 500, maxHoldMs: 2_000 });
    f.advance(pg([2], 100, 105), 0);
    expect(f.advance(pg([2], 100, 106), 1_950).recheckInMs).toBe(50);
    expect(f.advance(pg([2, 3], 100, 106), 2_000).through).toBe(3);
  });

  it("times each hole from when it was first seen", () => {
    const f = new EventFrontier(0, { graceMs: 500, maxHoldMs: 10_000 });
    f.advance(pg([2], 1, 1), 0);
    f.advance(pg([2, 4], 1, 1), 400);
    // Hole 1 has waited its grace; hole 3 appeared at 400 and has 100 ms to go.
    expect(f.advance(pg([2, 4], 1, 1), 800)).toEqual({ through: 2, recheckInMs: 100 });
    expect(f.advance(pg([4], 1, 1), 900)).toEqual({ through: 4, recheckInMs: null });
  });

  it("never moves backwards or past an unseen id", () => {
    const f = new EventFrontier(5, { graceMs: 0, maxHoldMs: 0 });
    expect(f.advance(lite([3, 6]), 0).through).toBe(6);
    expect(f.position).toBe(6);
  });
});

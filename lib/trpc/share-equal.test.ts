import { describe, expect, it } from "vitest";
import { shareEqual } from "./share-equal";

describe("shareEqual", () => {
  it("keeps unchanged branches, Dates included, and replaces changed ones", () => {
    const prev = {
      now: new Date(1000),
      series: [{ number: 1, finishedAt: new Date(5000), scores: { a: 0.5 } }],
      loop: { status: "running" },
    };
    const next = {
      now: new Date(2000),
      series: [{ number: 1, finishedAt: new Date(5000), scores: { a: 0.5 } }],
      loop: { status: "paused" },
    };
    const shared = shareEqual(prev, next) as typeof next;
    expect(shared).not.toBe(prev);
    expect(shared.series).toBe(prev.series);
    expect(shared.now).toBe(next.now);
    expect(shared.loop).toEqual({ status: "paused" });
    expect(shared.loop).not.toBe(prev.loop);
  });

  it("returns the previous value when nothing changed and notices added or removed items", () => {
    const prev = { a: [1, 2], b: new Date(1) };
    expect(shareEqual(prev, { a: [1, 2], b: new Date(1) })).toBe(prev);
    const longer = shareEqual(prev, { a: [1, 2, 3], b: new Date(1) }) as typeof prev;
    expect(longer.a).toEqual([1, 2, 3]);
    expect(shareEqual({ a: 1, b: 2 }, { a: 1 })).toEqual({ a: 1 });
    expect(shareEqual({ a: 1 }, { a: 1, b: undefined })).toEqual({ a: 1, b: undefined });
  });
});

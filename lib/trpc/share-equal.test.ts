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

  it("matches rows by key, so a row added at the top of a newest-first list leaves the others identical", () => {
    const prev = {
      items: [
        { number: 2, attempt: 1, at: new Date(2) },
        { number: 1, attempt: 1, at: new Date(1) },
      ],
    };
    const next = {
      items: [
        { number: 3, attempt: 1, at: new Date(3) },
        { number: 2, attempt: 1, at: new Date(2) },
        { number: 1, attempt: 1, at: new Date(1) },
      ],
    };
    const shared = shareEqual(prev, next) as typeof next;
    expect(shared.items[1]).toBe(prev.items[0]);
    expect(shared.items[2]).toBe(prev.items[1]);
    expect(shared.items[0]).toBe(next.items[0]);
    const byId = shareEqual(
      [{ id: "a", v: 1 }],
      [
        { id: "b", v: 1 },
        { id: "a", v: 2 },
      ],
    ) as { id: string; v: number }[];
    expect(byId.map((r) => r.v)).toEqual([1, 2]);
    // Without keys, position decides, as before.
    const plain = [{ v: 1 }];
    expect((shareEqual(plain, [{ v: 1 }, { v: 2 }]) as unknown[])[0]).toBe(plain[0]);
  });
});

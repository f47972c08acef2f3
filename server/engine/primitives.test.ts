import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "./canonical-json";
import { isUuidv7, uuidv7, uuidv7Timestamp } from "./uuidv7";

describe("canonicalJson", () => {
  it("sorts keys at every depth and drops undefined members", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: undefined } })).toBe(
      '{"a":{"d":[3,{"y":2,"z":1}]},"b":1}',
    );
  });

  it("matches JSON for scalars and non-finite numbers", () => {
    expect(canonicalJson(null)).toBe("null");
    expect(canonicalJson("é\n")).toBe(JSON.stringify("é\n"));
    expect(canonicalJson(Number.POSITIVE_INFINITY)).toBe("null");
    expect(canonicalJson([undefined, true])).toBe("[null,true]");
    expect(() => canonicalJson(() => 1)).toThrow("cannot encode a function");
    expect(canonicalJson(-0)).toBe("0");
    expect(canonicalJson([1e21, 1.5e-7, -2.5])).toBe(JSON.stringify([1e21, 1.5e-7, -2.5]));
  });

  // A checkpoint is hashed as built and verified once parsed back from storage: both must give the same text.
  it("writes any value as its JSON round trip would be written", () => {
    class Point {
      constructor(
        readonly x: number,
        readonly y: number,
      ) {}
    }
    const values: unknown[] = [
      { at: new Date(0), b: new Point(2, 1) },
      { f: () => 1, s: Symbol("s"), list: [() => 1, Symbol("t"), undefined, new Date(5)] },
      { toJSON: () => ({ z: 1, a: [2] }) },
      { inner: { toJSON: () => undefined }, kept: new Map([[1, 2]]) },
      [Object.assign(Object.create(null) as object, { b: 1, a: "\0\ud800" })],
    ];
    for (const value of values) expect(canonicalJson(value)).toBe(canonicalJson(JSON.parse(JSON.stringify(value))));
    expect(() => canonicalJson({ n: 1n })).toThrow(TypeError);
  });

  it("writes the text a cache holds for an object instead of walking it", () => {
    const config = { a: 1 };
    const cache = new WeakMap<object, string>([[config, '"cached"']]);
    expect(canonicalJson({ config, other: { a: 1 } }, cache)).toBe('{"config":"cached","other":{"a":1}}');
  });

  // Stored checkpoints were sealed with the first, plainer version: any change must produce the same text.
  it("gives exactly the text the original sort-and-join version gave, for any JSON value", () => {
    const reference = (value: unknown): string => {
      if (value === null) return "null";
      if (typeof value === "number") return Number.isFinite(value) ? JSON.stringify(value) : "null";
      if (typeof value !== "object") return JSON.stringify(value);
      if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? "null" : reference(v))).join(",")}]`;
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record)
        .filter((k) => record[k] !== undefined)
        .sort();
      return `{${keys.map((k) => `${JSON.stringify(k)}:${reference(record[k])}`).join(",")}}`;
    };
    fc.assert(
      fc.property(fc.jsonValue(), fc.dictionary(fc.string(), fc.option(fc.double(), { nil: undefined })), (v, d) => {
        expect(canonicalJson(v)).toBe(reference(v));
        expect(canonicalJson({ z: v, a: d, "10": 1, "9": [d] })).toBe(reference({ z: v, a: d, "10": 1, "9": [d] }));
      }),
      { seed: 16, numRuns: 500 },
    );
  });
});

describe("uuidv7", () => {
  it("encodes the time and the version/variant bits", () => {
    const t = Date.UTC(2026, 1, 16, 10, 0, 0);
    const id = uuidv7(
      () => t,
      () => 0.999999,
    );
    expect(isUuidv7(id)).toBe(true);
    expect(uuidv7Timestamp(id)).toBe(t);
    expect(
      uuidv7(
        () => t,
        () => 0,
      ),
    ).toBe(
      `${t
        .toString(16)
        .padStart(12, "0")
        .replace(/^(.{8})(.{4})$/, "$1-$2")}-7000-8000-000000000000`,
    );
  });

  it("sorts by creation time", () => {
    const a = uuidv7(() => 1_000, Math.random);
    const b = uuidv7(() => 2_000, Math.random);
    expect(a < b).toBe(true);
  });
});

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

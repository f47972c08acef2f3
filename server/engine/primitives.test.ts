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

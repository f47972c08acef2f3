import { describe, expect, it } from "vitest";
import { canonicalJson } from "./canonical-json";
import { sha256, utf8Bytes } from "./sha256";
import { isUuidv7, uuidv7, uuidv7Timestamp } from "./uuidv7";

describe("sha256", () => {
  it.each([
    ["", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"],
    ["abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"],
    ["abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"],
    ["The quick brown fox jumps over the lazy dog", "d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592"],
    ["héllo wörld €𝄞", "8950e611d8677d40524f8179eedbf3f25cf9f54f652a01fc14f4b3537e00ecae"],
    ["x".repeat(55), "d5e285683cd4efc02d021a5c62014694958901005d6f71e89e0989fac77e4072"],
    ["x".repeat(56), "04c26261370ee7541549d16dee320c723e3fd14671e66a099afe0a377c16888e"],
    ["x".repeat(64), "7ce100971f64e7001e8fe5a51973ecdfe1ced42befe7ee8d5fd6219506b5393c"],
    ["\ud800", "83d544ccc223c057d2bf80d3f2a32982c32c3c0db8e2674820da5064783fb097"],
  ])("hashes %j", (input, expected) => {
    expect(sha256(input)).toBe(expected);
  });

  it("hashes one million 'a'", () => {
    expect(sha256("a".repeat(1_000_000))).toBe("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  });

  it("encodes UTF-8 like TextEncoder", () => {
    const text = "aé€𝄞\udc00";
    expect(Array.from(utf8Bytes(text))).toEqual(Array.from(new TextEncoder().encode(text)));
  });
});

describe("canonicalJson", () => {
  it("sorts keys at every depth and drops undefined members", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: undefined } })).toBe('{"a":{"d":[3,{"y":2,"z":1}]},"b":1}');
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
    const id = uuidv7(() => t, () => 0.999999);
    expect(isUuidv7(id)).toBe(true);
    expect(uuidv7Timestamp(id)).toBe(t);
    expect(uuidv7(() => t, () => 0)).toBe(`${t.toString(16).padStart(12, "0").replace(/^(.{8})(.{4})$/, "$1-$2")}-7000-8000-000000000000`);
  });

  it("sorts by creation time", () => {
    const a = uuidv7(() => 1_000, Math.random);
    const b = uuidv7(() => 2_000, Math.random);
    expect(a < b).toBe(true);
  });
});

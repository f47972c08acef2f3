import { describe, expect, it } from "vitest";
import { FakeClock } from "../../test/checkpoint-scenarios";
import { canonicalText, digestOf } from "./checkpoint-memo";
import {
  buildCheckpoint,
  citationsOf,
  createLoop,
  decodeCheckpoint,
  encodeCheckpoint,
  restoreFromCheckpoint,
  type LoopSnapshot,
} from "./index";

const clock = new FakeClock();
const sha256 = clock.sha256;

/** Stores a checkpoint as the runtime does and restores it from the stored text alone. */
function storeAndRestore(snapshot: LoopSnapshot, stored: Set<string>, parts: Map<string, string>) {
  const checkpoint = buildCheckpoint(snapshot, clock);
  const encoded = encodeCheckpoint(checkpoint, { sha256, stored });
  for (const part of encoded.parts) parts.set(part.hash, part.body);
  for (const hash of encoded.cites) stored.add(hash);
  const text = JSON.parse(encoded.state) as unknown;
  expect(citationsOf(text).parts.every((hash) => parts.has(hash))).toBe(true);
  const decoded = decodeCheckpoint(text, { part: (h) => parts.get(h), output: () => undefined }, sha256);
  return restoreFromCheckpoint(decoded, { sha256, expectedHash: checkpoint.hash });
}

describe("checkpoint memo", () => {
  it("remembers a plain value's text and freezes it, so an in-place change throws instead of going stale", () => {
    const value = { b: [1, { c: "x" }], a: null };
    const text = canonicalText(value);
    expect(canonicalText(value)).toBe(text);
    expect(Object.isFrozen(value) && Object.isFrozen(value.b) && Object.isFrozen(value.b[1])).toBe(true);
    expect(() => {
      (value.b[1] as { c: string }).c = "changed";
    }).toThrow(TypeError);
    expect(canonicalText(value)).toBe('{"a":null,"b":[1,{"c":"x"}]}');
  });

  it("leaves values that are not plain JSON data unfrozen and unremembered", () => {
    const value = { at: new Date(0), list: [1] };
    expect(canonicalText(value)).toBe(JSON.stringify({ at: new Date(0).toISOString(), list: [1] }));
    expect(Object.isFrozen(value) || Object.isFrozen(value.list)).toBe(false);
  });

  it("digests a text once per hash function", () => {
    let calls = 0;
    const counting = (text: string) => (calls++, sha256(text));
    expect(digestOf(counting, "part")).toBe(sha256("part"));
    expect(digestOf(counting, "part")).toBe(sha256("part"));
    expect(calls).toBe(1);
  });

  it("checkpoints of successive snapshots sharing their config and list items restore from storage", () => {
    const stored = new Set<string>();
    const parts = new Map<string, string>();
    let snapshot = createLoop("a goal", {}, clock);
    for (let i = 1; i <= 40; i++) {
      // What the engine does: new containers, the same config and earlier items.
      snapshot = {
        ...snapshot,
        state: { ...snapshot.state, iteration: i },
        work: { ...snapshot.work, completed: [...snapshot.work.completed, `task ${i} ${"x".repeat(40)}`] },
        ledger: {
          ...snapshot.ledger,
          recent: [
            ...snapshot.ledger.recent,
            {
              iteration: i,
              agentId: "a",
              attempt: 1,
              at: i,
              input: i,
              output: 1,
              cache: 0,
              costUsd: 0.01,
              toolCalls: 0,
            },
          ],
        },
      };
      const restored = storeAndRestore(snapshot, stored, parts);
      expect(restored.state.iteration).toBe(i);
      expect(restored.ledger.recent).toEqual(snapshot.ledger.recent);
      expect(restored.config).toEqual(snapshot.config);
    }
    // The config and the items were remembered: frozen, as the engine never changes them in place.
    expect(Object.isFrozen(snapshot.config)).toBe(true);
    expect(Object.isFrozen(snapshot.ledger.recent[0])).toBe(true);
  });

  it("a checkpoint of a snapshot holding a non-JSON value still verifies once stored (no copy is hashed)", () => {
    const snapshot = createLoop("dated", {}, clock);
    const odd = { ...snapshot, state: { ...snapshot.state, metadata: { at: new Date(7) } } } as unknown as LoopSnapshot;
    const restored = storeAndRestore(odd, new Set(), new Map());
    expect((restored.state.metadata as Record<string, unknown>).at).toBe(new Date(7).toISOString());
  });
});

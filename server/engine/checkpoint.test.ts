import { describe, expect, it } from "vitest";
import {
  buildCheckpoint,
  checkpointHash,
  CheckpointIntegrityError,
  restoreFromCheckpoint,
  verifyCheckpoint,
} from "./checkpoint";
import { createLoop } from "./snapshot";
import { FakeClock } from "../../test/engine-fakes";
import { isUuidv7 } from "./uuidv7";
import { currentSnapshotCodec } from "./snapshot-versions";

const sha256 = new FakeClock().sha256;

// Stored checkpoints are untyped JSON; tampering works on that shape.
type Stored = {
  snapshot: { goal: string; config: { stop: { maxIterations: number } } };
  metrics: { costUsd: number };
  hash: string;
} & Record<string, unknown>;

function sample() {
  const clock = new FakeClock();
  const base = createLoop("Implement feature X", { stop: { maxIterations: 4 } }, clock);
  const snapshot = {
    ...base,
    state: { ...base.state, iteration: 2 },
    work: { ...base.work, phase: "TESTING" as const, completed: ["schema"], pending: ["api"], decisions: ["zod"] },
    health: { ...base.health, runStartedAt: 123 },
    last: { ...base.last, agentId: "agent-2" },
  };
  return { clock, snapshot, checkpoint: buildCheckpoint(snapshot, clock) };
}

describe("checkpoints", () => {
  it("carry CD's schema and a UUIDv7 id", () => {
    const { checkpoint, clock } = sample();
    expect(isUuidv7(checkpoint.id)).toBe(true);
    expect(checkpoint.metadata).toEqual({ loopId: "id-1", iteration: 2, agentId: "agent-2", createdAt: clock.now() });
    expect(checkpoint.execution).toEqual({ phase: "TESTING", completed: ["schema"], pending: ["api"], blocked: [] });
    expect(checkpoint.context.decisions).toEqual(["zod"]);
    expect(checkpoint.recovery.resumeFromIteration).toBe(3);
    expect(checkpoint.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(verifyCheckpoint(checkpoint, sha256)).toBe(true);
    expect(verifyCheckpoint(checkpoint, sha256, "0".repeat(64))).toBe(false);
  });

  it("round-trip through JSON storage", () => {
    const { checkpoint, snapshot } = sample();
    const stored = JSON.parse(JSON.stringify(checkpoint));
    const restored = restoreFromCheckpoint(stored, { sha256, expectedHash: checkpoint.hash });
    expect(restored.state).toEqual(snapshot.state);
    expect(restored.work).toEqual(snapshot.work);
    expect(restored.last.checkpointId).toBe(checkpoint.id);
    expect(restored.health.runStartedAt).toBeNull();
  });

  it("the hash ignores key order but not content", () => {
    const { checkpoint } = sample();
    const reordered = Object.fromEntries(Object.entries(checkpoint).reverse());
    expect(checkpointHash(reordered as typeof checkpoint, sha256)).toBe(checkpoint.hash);
  });

  it.each([
    [
      "a tampered field",
      (c: Stored) => {
        c.snapshot.goal = "something else";
      },
      "hash mismatch",
    ],
    [
      "a tampered metric",
      (c: Stored) => {
        c.metrics.costUsd = 99;
      },
      "hash mismatch",
    ],
    [
      "a forged hash",
      (c: Stored) => {
        c.hash = "f".repeat(64);
      },
      "hash mismatch",
    ],
    [
      "a missing snapshot",
      (c: Stored) => {
        delete (c as Partial<Stored>).snapshot;
      },
      "Malformed checkpoint",
    ],
    [
      "an invalid config",
      (c: Stored) => {
        c.snapshot.config.stop.maxIterations = 0;
      },
      "hash mismatch",
    ],
  ])("rejects %s", (_name, tamper, message) => {
    const { checkpoint } = sample();
    const copy = JSON.parse(JSON.stringify(checkpoint));
    tamper(copy);
    expect(() => restoreFromCheckpoint(copy, { sha256 })).toThrow(CheckpointIntegrityError);
    expect(() => restoreFromCheckpoint(copy, { sha256 })).toThrow(message);
  });

  it("rejects a sealed checkpoint whose config is not valid (any more)", () => {
    const { snapshot, clock } = sample();
    const bad = { ...snapshot, config: { ...snapshot.config, stop: { ...snapshot.config.stop, maxIterations: 0 } } };
    const checkpoint = JSON.parse(JSON.stringify(buildCheckpoint(bad, clock)));
    expect(() => restoreFromCheckpoint(checkpoint, { sha256 })).toThrow(/config is no longer valid: .*maxIterations/);
  });

  it("rejects a checkpoint whose hash differs from the stored one", () => {
    const { checkpoint } = sample();
    expect(() => restoreFromCheckpoint(checkpoint, { sha256, expectedHash: "a".repeat(64) })).toThrow(
      "does not match the expected hash",
    );
  });
});

describe("the injected SHA-256", () => {
  it("is the only hash: build and restore both call the one the deps carry", () => {
    const clock = new FakeClock();
    const calls: string[] = [];
    const counting = (text: string) => (calls.push("hash"), clock.sha256(text));
    const snapshot = createLoop("goal", {}, clock);
    const checkpoint = buildCheckpoint(snapshot, { ...clock, sha256: counting }, "id-1");
    expect(calls).toHaveLength(1);
    restoreFromCheckpoint(JSON.parse(JSON.stringify(checkpoint)), { sha256: counting, expectedHash: checkpoint.hash });
    expect(calls).toHaveLength(2);
    // A different hash function cannot vouch for the seal.
    expect(() => restoreFromCheckpoint(checkpoint, { sha256: (t) => clock.sha256(`x${t}`) })).toThrow("hash mismatch");
  });
});

describe("restoring a config parsed before", () => {
  it("parses a config text once per codec, gives each restore its own copy, and never remembers a failure", () => {
    const checkpoint = JSON.parse(JSON.stringify(sample().checkpoint)) as Stored;
    let parses = 0;
    const codec = {
      ...currentSnapshotCodec,
      parseConfig: (input: unknown) => (parses++, currentSnapshotCodec.parseConfig(input)),
    };
    const first = restoreFromCheckpoint(checkpoint, { sha256, codec });
    const second = restoreFromCheckpoint(checkpoint, { sha256, codec });
    expect(parses).toBe(1);
    expect(second.config).toEqual(first.config);
    expect(second.config).not.toBe(first.config);
    expect(second.config.stop.maxIterations).toBe(4);

    // Another codec (another release's defaults) parses for itself.
    restoreFromCheckpoint(checkpoint, { sha256, codec: { ...codec } });
    expect(parses).toBe(2);

    const broken = JSON.parse(JSON.stringify(checkpoint)) as Stored;
    (broken.snapshot.config.stop as unknown as { maxIterations: string }).maxIterations = "many";
    broken.hash = checkpointHash(broken as never, sha256);
    for (let i = 0; i < 2; i++)
      expect(() => restoreFromCheckpoint(broken, { sha256, codec })).toThrow(/config is no longer valid/);
    expect(parses).toBe(4);
  });
});

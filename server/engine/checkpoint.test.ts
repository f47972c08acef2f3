import { describe, expect, it } from "vitest";
import { buildCheckpoint, checkpointHash, CheckpointIntegrityError, restoreFromCheckpoint, verifyCheckpoint } from "./checkpoint";
import { createLoop } from "./snapshot";
import { FakeClock } from "./test-support";
import { isUuidv7 } from "./uuidv7";

// Stored checkpoints are untyped JSON; tampering works on that shape.
type Stored = { snapshot: { goal: string; config: { stop: { maxIterations: number } } }; metrics: { costUsd: number }; hash: string } & Record<string, unknown>;

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
    expect(verifyCheckpoint(checkpoint)).toBe(true);
    expect(verifyCheckpoint(checkpoint, "0".repeat(64))).toBe(false);
  });

  it("round-trip through JSON storage", () => {
    const { checkpoint, snapshot } = sample();
    const stored = JSON.parse(JSON.stringify(checkpoint));
    const restored = restoreFromCheckpoint(stored, checkpoint.hash);
    expect(restored.state).toEqual(snapshot.state);
    expect(restored.work).toEqual(snapshot.work);
    expect(restored.last.checkpointId).toBe(checkpoint.id);
    expect(restored.health.runStartedAt).toBeNull();
  });

  it("the hash ignores key order but not content", () => {
    const { checkpoint } = sample();
    const reordered = Object.fromEntries(Object.entries(checkpoint).reverse());
    expect(checkpointHash(reordered as typeof checkpoint)).toBe(checkpoint.hash);
  });

  it.each([
    ["a tampered field", (c: Stored) => { c.snapshot.goal = "something else"; }, "hash mismatch"],
    ["a tampered metric", (c: Stored) => { c.metrics.costUsd = 99; }, "hash mismatch"],
    ["a forged hash", (c: Stored) => { c.hash = "f".repeat(64); }, "hash mismatch"],
    ["a missing snapshot", (c: Stored) => { delete (c as Partial<Stored>).snapshot; }, "Malformed checkpoint"],
    ["an invalid config", (c: Stored) => { c.snapshot.config.stop.maxIterations = 0; }, "Malformed checkpoint"],
  ])("rejects %s", (_name, tamper, message) => {
    const { checkpoint } = sample();
    const copy = JSON.parse(JSON.stringify(checkpoint));
    tamper(copy);
    expect(() => restoreFromCheckpoint(copy)).toThrow(CheckpointIntegrityError);
    expect(() => restoreFromCheckpoint(copy)).toThrow(message);
  });

  it("rejects a checkpoint whose hash differs from the stored one", () => {
    const { checkpoint } = sample();
    expect(() => restoreFromCheckpoint(checkpoint, "a".repeat(64))).toThrow("does not match the expected hash");
  });
});

describe("an injected SHA-256", () => {
  it("gives the same seal as the built-in one, so checkpoints restore either way", async () => {
    // Test-only: the engine itself never imports node built-ins.
    const { createHash } = await import("node:crypto");
    const clock = new FakeClock();
    const snapshot = createLoop("goal", {}, clock);
    const native = buildCheckpoint(snapshot, { ...clock, sha256: (t) => createHash("sha256").update(t).digest("hex") }, "id-1");
    const pure = buildCheckpoint(snapshot, clock, "id-1");
    expect(native.hash).toBe(pure.hash);
    expect(restoreFromCheckpoint(JSON.parse(JSON.stringify(native)), native.hash).loopId).toBe(snapshot.loopId);
  });
});

import { describe, expect, it } from "vitest";
import { z } from "zod";
import { buildCheckpoint, restoreFromCheckpoint } from "./checkpoint";
import { loopConfigSchema, LoopConfigError, type LoopConfig } from "./config.schema";
import { createLoop, type LoopSnapshot } from "./snapshot";
import { SNAPSHOT_VERSION, upgradeSnapshot, type SnapshotCodec } from "./snapshot-versions";
import { FakeClock } from "../../test/engine-fakes";

const clock = new FakeClock();
const stored = (snapshot: LoopSnapshot) => JSON.parse(JSON.stringify(buildCheckpoint(snapshot, clock)));

/** The next release, as a test imagines it: version + 1, with a new config field and an upgrader. */
function nextRelease(): SnapshotCodec {
  const next = loopConfigSchema.extend({
    review: z.object({ reviewer: z.string().default("nobody") }).prefault({}),
  });
  return {
    version: SNAPSHOT_VERSION + 1,
    upgraders: {
      [SNAPSHOT_VERSION]: (s) => ({ ...s, version: SNAPSHOT_VERSION + 1, notes: [] }),
    },
    parseConfig: (input) => {
      const parsed = next.safeParse(input);
      if (!parsed.success) throw new LoopConfigError(parsed.error.issues.map((i) => i.message));
      return parsed.data as LoopConfig;
    },
  };
}

describe("snapshot versions", () => {
  it("a checkpoint written now restores after a version bump that adds a config field", () => {
    const snapshot = createLoop("goal", { stop: { maxIterations: 7 } }, clock);
    const restored = restoreFromCheckpoint(stored(snapshot), { sha256: clock.sha256, codec: nextRelease() });
    expect(restored.version).toBe(SNAPSHOT_VERSION + 1);
    expect((restored as unknown as { notes: unknown[] }).notes).toEqual([]);
    expect((restored.config as unknown as { review: { reviewer: string } }).review).toEqual({ reviewer: "nobody" });
    expect(restored.config.stop.maxIterations).toBe(7);
    expect(restored.goal).toBe("goal");
  });

  it("re-applies config defaults on restore, so a field added since reaches running loops", () => {
    const snapshot = createLoop("goal", {}, clock);
    const { pacing: _dropped, ...older } = snapshot.config;
    const checkpoint = stored({ ...snapshot, config: older as LoopConfig });
    expect(checkpoint.snapshot.config.pacing).toBeUndefined();
    const restored = restoreFromCheckpoint(checkpoint, { sha256: clock.sha256 });
    expect(restored.config.pacing).toEqual(snapshot.config.pacing);
  });

  it("refuses a snapshot from a newer release, with a clear reason", () => {
    const future = stored({ ...createLoop("goal", {}, clock), version: SNAPSHOT_VERSION + 1 });
    expect(() => restoreFromCheckpoint(future, { sha256: clock.sha256 })).toThrow(/written by a newer release/);
  });

  it("refuses a version with no upgrader, and an upgrader that skips a version", () => {
    const codec = nextRelease();
    const snapshot = JSON.parse(JSON.stringify(createLoop("goal", {}, clock)));
    expect(() => upgradeSnapshot(snapshot, { ...codec, upgraders: {} })).toThrow(/no upgrader from snapshot version/);
    const skipping = { ...codec, upgraders: { [SNAPSHOT_VERSION]: (s: Record<string, unknown>) => s } };
    expect(() => upgradeSnapshot(snapshot, skipping)).toThrow(/did not produce version/);
    expect(() => upgradeSnapshot({ ...snapshot, version: "1" })).toThrow(/unknown snapshot version/);
  });

  it("the seal covers the snapshot as stored: upgrading never breaks the hash check, tampering still does", () => {
    const checkpoint = stored(createLoop("goal", {}, clock));
    checkpoint.snapshot.goal = "altered";
    expect(() => restoreFromCheckpoint(checkpoint, { sha256: clock.sha256, codec: nextRelease() })).toThrow(
      /hash mismatch/,
    );
  });
});

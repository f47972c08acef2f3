import { describe, expect, it } from "vitest";
import { checkpointScenarios, FakeClock } from "../../test/checkpoint-scenarios";
import { storeScenarioRun } from "../../test/checkpoint-stored-run";
import {
  buildCheckpoint,
  CheckpointIntegrityError,
  citationsOf,
  createLoop,
  decodeCheckpoint,
  encodeCheckpoint,
  restoreFromCheckpoint,
} from "./index";

const clock = new FakeClock();
const sha256 = clock.sha256;

/** Every step's checkpoint of a scenario, as the runtime would store them one after another. */
const storedRun = (index: number, iterations: number) => storeScenarioRun(checkpointScenarios(iterations)[index]!);

describe("checkpoint format 2", () => {
  it.each(checkpointScenarios(1).map((s, i) => [s.name, i] as const))(
    "%s: every stored checkpoint decodes to the checkpoint it encoded, and restores",
    async (_name, index) => {
      const { steps, sources } = await storedRun(index, 60);
      expect(steps.length).toBeGreaterThanOrEqual(60);
      for (const { checkpoint, state } of steps) {
        const decoded = decodeCheckpoint(JSON.parse(state), sources, sha256);
        expect(decoded).toEqual(JSON.parse(JSON.stringify(checkpoint)));
        const restored = restoreFromCheckpoint(decoded, { sha256, expectedHash: checkpoint.hash });
        expect(restored).toEqual({
          ...JSON.parse(JSON.stringify(checkpoint.snapshot)),
          health: { ...checkpoint.snapshot.health, runStartedAt: null },
          last: { ...checkpoint.snapshot.last, checkpointId: checkpoint.id },
        });
      }
    },
  );

  it.each([
    ["demo agent", 0],
    ["reflection history", 2],
    ["long outputs", 3],
  ] as const)("%s: stores far less than format 1, and parts that do not change are stored once", async (_n, index) => {
    const { steps, parts } = await storedRun(index, 120);
    const before = steps.reduce((sum, s) => sum + JSON.stringify(s.checkpoint).length, 0);
    const after = steps.reduce((sum, s) => sum + s.state.length, 0) + [...parts.values()].join("").length;
    expect(after * 2).toBeLessThan(before);
    // The config and the goal: one part each for the whole run.
    const config = steps.at(-1)!.checkpoint.snapshot.config;
    const configBodies = [...parts.values()].filter((b) => b === JSON.stringify(JSON.parse(b)) && b.includes('"stop"'));
    expect(configBodies).toHaveLength(1);
    expect(JSON.parse(configBodies[0]!)).toEqual(JSON.parse(JSON.stringify(config)));
    // Later checkpoints mostly cite what is stored already.
    expect(steps.slice(-20).reduce((n, s) => n + s.newParts.length, 0)).toBeLessThan(20);
  });

  it("inlines the last output without a row to cite, and small values always", () => {
    const snapshot = createLoop("short goal", {}, clock);
    const withOutput = { ...snapshot, last: { ...snapshot.last, number: 1, output: "x".repeat(5000) } };
    const checkpoint = buildCheckpoint(withOutput, clock);
    const inline = JSON.parse(encodeCheckpoint(checkpoint, { sha256 }).state);
    expect(inline.snapshot.last.output).toBe("x".repeat(5000));
    expect(inline.output).toBeUndefined();
    expect(inline.snapshot.goal).toBe("short goal");
    const cited = JSON.parse(encodeCheckpoint(checkpoint, { sha256, outputRow: "r1" }).state);
    expect(cited.snapshot.last.output).toBe("");
    expect(cited.output).toEqual({ row: "r1", sha256: sha256("x".repeat(5000)) });
    expect(citationsOf(cited).outputRow).toBe("r1");
    // Nothing derived is stored: the header is rebuilt from the snapshot.
    expect(Object.keys(cited).sort()).toEqual(["createdAt", "format", "hash", "id", "output", "parts", "snapshot"]);
  });

  it("decodes a format-1 checkpoint (stored before format 2) as itself", () => {
    const checkpoint = buildCheckpoint(createLoop("old loop", {}, clock), clock);
    const v1 = JSON.parse(JSON.stringify(checkpoint));
    expect(citationsOf(v1)).toEqual({ parts: [], outputRow: null });
    const decoded = decodeCheckpoint(v1, { part: () => undefined, output: () => undefined }, sha256);
    expect(decoded).toEqual(v1);
    expect(restoreFromCheckpoint(decoded, { sha256, expectedHash: checkpoint.hash }).goal).toBe("old loop");
  });

  const broken: [
    string,
    (state: Record<string, unknown>, parts: Map<string, string>, outputs: Map<string, string>) => void,
    RegExp,
  ][] = [
    ["a missing part", (_s, parts) => parts.clear(), /part .* is missing/],
    [
      "an altered part",
      (_s, parts) => {
        const [hash, body] = [...parts].find(([, b]) => b.includes('"stop"'))!;
        parts.set(hash, body.replace('"maxIterations":60', '"maxIterations":61'));
      },
      /hash mismatch/,
    ],
    ["a missing output row", (_s, _p, outputs) => outputs.clear(), /cites is missing/],
    ["an altered output", (_s, _p, outputs) => outputs.forEach((v, k) => outputs.set(k, `${v}!`)), /was altered/],
    ["an unknown format", (s) => (s.format = 3), /Unknown checkpoint format 3/],
    ["an altered inline value", (s) => ((s.snapshot as { status: string }).status = "completed"), /hash mismatch/],
  ];
  it.each(broken)("refuses %s", async (_name, breakIt, message) => {
    const { steps, parts, outputs } = await storedRun(0, 60);
    const state = JSON.parse(steps.at(-1)!.state) as Record<string, unknown>;
    breakIt(state, parts, outputs);
    const sources = { part: (h: string) => parts.get(h), output: (r: string) => outputs.get(r) };
    expect(() => restoreFromCheckpoint(decodeCheckpoint(state, sources, sha256), { sha256 })).toThrow(
      CheckpointIntegrityError,
    );
    expect(() => restoreFromCheckpoint(decodeCheckpoint(state, sources, sha256), { sha256 })).toThrow(message);
  });
});

describe("checkpoint format 2 with bounded lists", () => {
  it("past the work lists' bound, a trim stores no new parts for the runs it keeps", async () => {
    // The demo agent completes one new item an iteration: its list is trimmed every 32 iterations from 257 on.
    const { steps, sources } = await storedRun(0, 600);
    const last = steps.at(-1)!;
    expect(last.checkpoint.snapshot.work.completed.length).toBeLessThanOrEqual(256);
    const decoded = decodeCheckpoint(JSON.parse(last.state), sources, sha256);
    expect(decoded).toEqual(JSON.parse(JSON.stringify(last.checkpoint)));
    // New parts are runs completed (31 over the last 200 iterations), not the kept runs stored again as
    // they shift (225 when the list is trimmed one item at a time).
    expect(steps.slice(-200).reduce((n, s) => n + s.newParts.length, 0)).toBeLessThan(60);
  }, 60_000);
});

// The engine driven one step at a time (checkpoint round trips, determinism,
// the preflight) and the health ladder while an agent runs.
import { describe, expect, it } from "vitest";
import { restoreFromCheckpoint } from "./checkpoint";
import type { ScorerPort } from "./ports";
import { beforeIteration } from "./preflight";
import { runLoop, step } from "./runner";
import { createLoop } from "./snapshot";
import { CollectingSink, FakeClock, hangingStep, result, ScriptedAgent, type AgentStep } from "../../test/engine-fakes";

describe("step-wise driving", () => {
  const config = { stop: { maxIterations: 5, scoreThreshold: 0.95 } };
  const scores = [0.2, 0.6, 1];
  const scorer = (): ScorerPort => {
    let n = 0;
    return { name: "q", score: () => ({ score: scores[n++] ?? 1 }) };
  };

  it("one step at a time, through a checkpoint round trip, reaches the same end", async () => {
    const clock = new FakeClock();
    const ports = { agent: new ScriptedAgent([{}], clock), scorers: [scorer()] };
    let snapshot = createLoop("g", config, clock);
    const hashes: string[] = [];
    for (let i = 0; i < 10 && snapshot.halt === null; i++) {
      const outcome = await step(snapshot, ports, clock);
      expect(outcome.iteration).not.toBeNull();
      hashes.push(outcome.iteration!.checkpoint.hash);
      // Persist and reload, as the database runtime does between steps.
      const stored = JSON.parse(JSON.stringify(outcome.iteration!.checkpoint));
      snapshot = restoreFromCheckpoint(stored, {
        sha256: clock.sha256,
        expectedHash: outcome.iteration!.checkpoint.hash,
      });
    }
    expect(snapshot.halt?.stopType).toBe("score_threshold");
    expect(snapshot.state.iteration).toBe(3);
    expect(new Set(hashes).size).toBe(3);
  });

  it("is deterministic for the same ports and deps", async () => {
    const runOnce = async () => {
      const clock = new FakeClock();
      const r = await runLoop({
        goal: "g",
        config,
        ports: { agent: new ScriptedAgent([{}], clock), scorers: [scorer()] },
        deps: clock,
      });
      return { records: r.records, hash: r.lastCheckpoint?.hash };
    };
    expect(await runOnce()).toEqual(await runOnce());
  });

  it("refuses to run an iteration the preflight would not allow", async () => {
    const clock = new FakeClock();
    const snapshot = createLoop("g", {}, clock);
    const pre = beforeIteration(
      snapshot,
      [{ id: "r", requestedAt: 0, by: "a", command: { kind: "terminate" } }],
      clock,
    );
    expect(pre.decision.kind).toBe("halt");
    const { runIteration } = await import("./iteration");
    await expect(runIteration(pre.snapshot, { agent: new ScriptedAgent([{}], clock) }, clock)).rejects.toThrow(
      /halted, gated or paused/,
    );
  });
});

describe("health interventions while the agent runs", () => {
  it("nudges, escalates, then terminates on the configured timings", async () => {
    const clock = new FakeClock();
    const sink = new CollectingSink();
    const start = clock.now();
    const out = await runLoop({
      goal: "g",
      config: {
        health: {
          stuckAfter: 60,
          nudgeInterval: 10,
          nudgesBeforeEscalation: 3,
          escalationTimeout: 30,
          checkInterval: 5,
        },
      },
      ports: { agent: new ScriptedAgent([hangingStep(1000)], clock), events: sink },
      deps: clock,
    });
    const ladder = sink.events.flatMap((e) => (e.type === "intervention" ? [[e.level, (e.at - start) / 1000]] : []));
    expect(ladder).toEqual([
      ["nudge", 60],
      ["nudge", 70],
      ["nudge", 80],
      ["escalate", 90],
      ["terminate", 120],
    ]);
    expect(out.stopType).toBe("health_failure");
    expect(out.records[0]?.status).toBe("interrupted");
    expect(out.records[0]?.health).toBe("terminated");
    // The nudges wait in the snapshot for the next input.
    expect(out.snapshot.health.reminders).toHaveLength(3);
  });

  it("progress resets the ladder", async () => {
    const clock = new FakeClock();
    const sink = new CollectingSink();
    const working: AgentStep = async (req, c) => {
      for (let i = 0; i < 4; i++) {
        await c.sleep(50_000);
        req.onProgress({ kind: "tool_call", name: "edit" });
      }
      return result();
    };
    const out = await runLoop({
      goal: "g",
      config: { stop: { maxIterations: 1 }, health: { stuckAfter: 60, nudgeInterval: 10, checkInterval: 5 } },
      ports: { agent: new ScriptedAgent([working], clock), events: sink },
      deps: clock,
    });
    expect(out.records[0]?.status).toBe("succeeded");
    expect(sink.events.some((e) => e.type === "intervention")).toBe(false);
  });
});

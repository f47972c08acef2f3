import { describe, expect, it } from "vitest";
import { parseLoopConfig } from "./config.schema";
import * as h from "./health";

const S = 1000;
const config = {
  ...parseLoopConfig({}).health,
  stuckAfter: 1800,
  nudgeInterval: 600,
  nudgesBeforeEscalation: 3,
  escalationTimeout: 900,
};

/** Evaluates the ladder every minute for `minutes` and returns [level, minute] pairs. */
function ladder(cfg: h.HealthConfig, minutes: number) {
  let health = h.healthOnRunStart(h.createHealth(), 0);
  const seen: [string, number][] = [];
  for (let m = 1; m <= minutes; m++) {
    const out = h.evaluateHealth(health, cfg, m * 60 * S);
    health = out.health;
    for (const i of out.interventions) seen.push([i.level, m]);
  }
  return { seen, health };
}

describe("health", () => {
  it("CD's ladder: stuck at 30 min, nudges every 10, escalate after 3, terminate 15 min later", () => {
    const { seen, health } = ladder(config, 120);
    expect(seen).toEqual([
      ["nudge", 30],
      ["nudge", 40],
      ["nudge", 50],
      ["escalate", 60],
      ["terminate", 75],
    ]);
    expect(health.state).toBe("terminated");
    expect(health.reminders[0]).toBe(
      "REMINDER: You have been working for 30 min without progress. Please either update progress, request handoff, or report blockers.",
    );
    expect(h.isHealthFailure(health.state)).toBe(true);
  });

  it("escalates immediately when no nudges are configured", () => {
    expect(ladder({ ...config, nudgesBeforeEscalation: 0 }, 50).seen).toEqual([
      ["escalate", 30],
      ["terminate", 45],
    ]);
  });

  it("stuck detection is off at stuckAfter 0", () => {
    expect(ladder({ ...config, stuckAfter: 0 }, 500).seen).toEqual([]);
  });

  it("classifies from heartbeats, progress and errors", () => {
    const start = h.healthOnRunStart(h.createHealth(), 0);
    expect(h.classifyHealth(start, config, 10 * S)).toBe("healthy");
    const beating = h.healthOnProgress(start, { kind: "heartbeat" }, 1000 * S);
    expect(h.classifyHealth(beating, config, 1700 * S)).toBe("healthy");
    expect(h.classifyHealth(start, config, 901 * S)).toBe("degraded"); // silent for half of stuckAfter
    expect(h.classifyHealth(beating, config, 1800 * S)).toBe("stuck"); // heartbeats are not progress
    const progressed = h.healthOnProgress(beating, { kind: "tool_call", name: "edit" }, 1700 * S);
    expect(h.classifyHealth(progressed, config, 1800 * S)).toBe("healthy");
    let ended = h.healthOnRunEnd(start, "error", 5 * S);
    expect(h.classifyHealth(ended, config, 6 * S)).toBe("degraded");
    ended = h.healthOnRunEnd(ended, "interrupted", 7 * S);
    expect(ended.consecutiveErrors).toBe(1);
    const failing = { ...ended, consecutiveErrors: config.failingAfterErrors };
    expect(h.classifyHealth(failing, config, 0)).toBe("failing");
    expect(h.classifyHealth(h.healthOnRunEnd(ended, "succeeded", 8 * S), config, 9 * S)).toBe("healthy");
    expect(h.isProgressEvent({ kind: "log", message: "x" })).toBe(false);
  });

  it("progress answers a nudge and resets the ladder", () => {
    let health = h.healthOnRunStart(h.createHealth(), 0);
    health = h.evaluateHealth(health, config, 1800 * S).health;
    expect(health.nudges).toBe(1);
    health = h.healthOnProgress(health, { kind: "progress", message: "step" }, 1810 * S);
    expect(health).toMatchObject({ nudges: 0, lastNudgeAt: null, escalatedAt: null });
    expect(h.evaluateHealth(health, config, 1820 * S).interventions).toEqual([]);
  });
});

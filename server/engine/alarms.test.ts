import { describe, expect, it } from "vitest";
import { alarmsConfigSchema, judgeAlarms, type AlarmSignals } from "./index";

const NOW = 1_000_000;
const base: AlarmSignals = {
  status: "running",
  health: "healthy",
  iterationsInWindow: 0,
  spendLastHourUsd: 0,
  inflightStartedAt: NOW - 5_000,
  lastAgentSignalAt: NOW - 1_000,
};
const config = (over: object = {}) => alarmsConfigSchema.parse(over);

describe("judgeAlarms", () => {
  const cases: [string, Partial<AlarmSignals>, object, string[]][] = [
    ["a healthy running loop raises nothing", {}, {}, []],
    ["61 iterations in a minute is a runaway", { iterationsInWindow: 61 }, {}, ["runaway"]],
    ["exactly the limit is not", { iterationsInWindow: 60 }, {}, []],
    [
      "a lower configured limit fires earlier",
      { iterationsInWindow: 11 },
      { runaway: { maxIterations: 10 } },
      ["runaway"],
    ],
    ["0 turns the runaway rule off", { iterationsInWindow: 500 }, { runaway: { maxIterations: 0 } }, []],
    ["a stopped loop is no runaway", { status: "stopped", iterationsInWindow: 500, inflightStartedAt: null }, {}, []],
    [
      "a queued loop can be a runaway",
      { status: "queued", iterationsInWindow: 61, inflightStartedAt: null },
      {},
      ["runaway"],
    ],
    [
      "no output for longer than silentAfter is silent",
      { inflightStartedAt: NOW - 300_000, lastAgentSignalAt: NOW - 121_000 },
      {},
      ["silent"],
    ],
    [
      "an agent that never printed counts from its start",
      { lastAgentSignalAt: null, inflightStartedAt: NOW - 200_000 },
      {},
      ["silent"],
    ],
    ["a recent start is not silent", { lastAgentSignalAt: null, inflightStartedAt: NOW - 3_000 }, {}, []],
    ["silent needs an iteration in flight", { inflightStartedAt: null, lastAgentSignalAt: null }, {}, []],
    ["silentAfter 0 is off", { lastAgentSignalAt: NOW - 999_000 }, { silentAfterSeconds: 0 }, []],
    ["spend over the hourly rate", { spendLastHourUsd: 5.09 }, { maxSpendPerHourUsd: 5 }, ["spend_rate"]],
    ["spend rate off by default", { spendLastHourUsd: 500 }, {}, []],
    [
      "a loop waiting for an answer needs attention",
      { status: "needs_attention", inflightStartedAt: null },
      {},
      ["attention"],
    ],
    ["a stuck running loop needs attention", { health: "stuck" }, {}, ["attention"]],
    [
      "a stuck loop that already ended does not",
      { status: "failed", health: "stuck", inflightStartedAt: null },
      {},
      [],
    ],
    [
      "several at once",
      {
        iterationsInWindow: 100,
        spendLastHourUsd: 2,
        inflightStartedAt: NOW - 300_000,
        lastAgentSignalAt: NOW - 200_000,
      },
      { maxSpendPerHourUsd: 1 },
      ["runaway", "silent", "spend_rate"],
    ],
  ];
  it.each(cases)("%s", (_name, signals, over, kinds) => {
    expect(judgeAlarms({ ...base, ...signals }, config(over), NOW).map((a) => a.kind)).toEqual(kinds);
  });

  it("a runaway carries the configured action; details say the numbers", () => {
    const [alarm] = judgeAlarms({ ...base, iterationsInWindow: 390 }, config({ runaway: { action: "pause" } }), NOW);
    expect(alarm).toMatchObject({ kind: "runaway", action: "pause" });
    expect(alarm!.detail).toBe("390 iterations in the last 60 s (limit 60)");
    const [spend] = judgeAlarms({ ...base, spendLastHourUsd: 0.01654 }, config({ maxSpendPerHourUsd: 0.015 }), NOW);
    expect(spend!.detail).toBe("$0.01654 in the last hour (limit $0.015)");
  });
});

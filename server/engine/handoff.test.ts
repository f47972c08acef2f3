import { describe, expect, it } from "vitest";
import { parseLoopConfig } from "./config.schema";
import { contextUtilization, continuationPrompt, shouldHandoff, type HandoffSignals } from "./handoff";

const config = parseLoopConfig({}).handoff;
const calm: HandoffSignals = {
  contextUtilization: 0.5,
  tokenBudgetUsed: 0.5,
  consecutiveErrors: 0,
  phaseComplete: false,
  explicit: false,
};

describe("handoff", () => {
  it.each<[string, Partial<HandoffSignals>, ReturnType<typeof shouldHandoff>]>([
    ["nothing", {}, null],
    ["context at 70% is not over", { contextUtilization: 0.7 }, null],
    ["context over 70%", { contextUtilization: 0.71 }, "context_threshold"],
    ["3 consecutive errors", { consecutiveErrors: 3 }, "error_threshold"],
    ["token budget over 80%", { tokenBudgetUsed: 0.81 }, "token_budget"],
    ["no budget", { tokenBudgetUsed: null }, null],
    ["phase complete", { phaseComplete: true }, "phase_complete"],
    [
      "explicit wins over everything",
      { explicit: true, contextUtilization: 0.99, consecutiveErrors: 9 },
      "explicit_request",
    ],
  ])("%s", (_name, signals, expected) => {
    expect(shouldHandoff({ ...calm, ...signals }, config)).toBe(expected);
  });

  it("error and phase triggers can be switched off", () => {
    const off = { ...config, errorThreshold: 0, onPhaseComplete: false };
    expect(shouldHandoff({ ...calm, consecutiveErrors: 10, phaseComplete: true }, off)).toBeNull();
  });

  it("renders an empty continuation prompt with placeholders", () => {
    expect(
      continuationPrompt({
        iteration: 2,
        phase: "TESTING",
        agentId: "a",
        checkpointId: "c",
        completed: [],
        pending: [],
        blocked: [],
        decisions: [],
        nextSteps: [],
      }),
    ).toBe(
      "## Handoff from Iteration 2\n**Phase:** TESTING\n**Last Agent:** a\n**Checkpoint:** c\n\n### Completed\n- (none)\n\n### Pending\n- (none)\n\n### Blocked\n- (none)\n\n### Key Decisions\n- (none)\n\n### Next Steps\nContinue with the pending items, in order.",
    );
  });

  it("estimates context use from tokens unless the agent reports it", () => {
    expect(contextUtilization({ input: 100_000, output: 40_000, cache: 0 }, config)).toBe(0.7);
    expect(contextUtilization({ input: 900_000, output: 0, cache: 0 }, config)).toBe(1);
    expect(contextUtilization({ input: 1, output: 0, cache: 0 }, config, 0.9)).toBe(0.9);
    expect(contextUtilization({ input: 1, output: 0, cache: 0 }, config, 7)).toBe(1);
  });
});

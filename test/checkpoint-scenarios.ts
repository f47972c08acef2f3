// Realistic loops for measuring and testing checkpoints: the engine with a
// fake clock and agents that answer as the real adapters do (a demo agent, a
// command agent with test evidence, a reflecting loop, long outputs, handoffs).
import type { AgentRunRequest, AgentRunResult, EnginePorts, TestEvidence } from "../server/engine";
import { FakeClock, result } from "./engine-fakes";

export interface CheckpointScenario {
  name: string;
  goal: string;
  config: Record<string, unknown>;
  ports: (clock: FakeClock) => EnginePorts;
}

const words = (n: number, seed: number) => Array.from({ length: n }, (_, i) => `word${(i * 7 + seed) % 97}`).join(" ");

// Never done, never stalled: the loop runs to maxIterations.
const endless = (maxIterations: number, extra: Record<string, unknown> = {}) => ({
  stop: { maxIterations, noProgressIterations: 0, maxConsecutiveFailures: 0, iterationTimeout: 0 },
  health: { checkInterval: 0 },
  completion: { allowNoEvidence: true },
  ...extra,
});

const demoAnswer = (req: AgentRunRequest): AgentRunResult =>
  result({
    output: `Iteration ${req.iteration}: refactored the parser, ${words(40, req.iteration)}`,
    usage: { input: 1200, output: 400, cache: 300 },
    progress: {
      phase: "IMPLEMENTING",
      completedItems: [`step ${req.iteration}`],
      pendingItems: ["write the docs", "add the CLI flag"],
      decisions: ["keep the old parser behind a flag"],
    },
  });

const failingTests = (iteration: number): TestEvidence => ({
  passed: 180 + (iteration % 5),
  failed: 12,
  skipped: 3,
  errored: 0,
  failures: Array.from({ length: 12 }, (_, i) => ({
    name: `parser > handles case ${i}`,
    file: `src/parser/case-${i}.test.ts`,
    message: `AssertionError: expected 'tok${i}' to equal 'token ${i}'\n    at src/parser/case-${i}.test.ts:${10 + i}:5`,
  })),
  moreFailures: 0,
  format: "junit",
  runner: "vitest",
  counted: true,
  exitCode: 1,
  warnings: [],
});

export function checkpointScenarios(iterations: number): CheckpointScenario[] {
  const goal = `Make the parser accept every input in the corpus. ${words(60, 1)}`;
  return [
    {
      name: "demo agent",
      goal,
      config: endless(iterations),
      ports: () => ({
        agent: { run: async (req) => demoAnswer(req) },
        scorers: [{ name: "progress", score: ({ iteration }) => ({ score: 0.5 + (iteration % 10) / 20 }) }],
      }),
    },
    {
      name: "command agent, test evidence",
      goal,
      config: endless(iterations, { reflection: { enabled: false } }),
      ports: () => ({
        agent: {
          run: async (req) =>
            result({ output: `$ npm test\n${words(120, req.iteration)}\n12 failed, 180 passed`, costUsd: 0 }),
        },
        scorers: [{ name: "tests", score: ({ iteration }) => ({ score: 0.93, tests: failingTests(iteration) }) }],
      }),
    },
    {
      name: "reflection history (maxHistory 50) + verifier",
      goal,
      config: endless(iterations, { reflection: { maxHistory: 50 } }),
      ports: () => ({
        agent: { run: async (req) => demoAnswer(req) },
        scorers: [{ name: "quality", score: () => ({ score: 0.3, reason: "half the cases still fail" }) }],
        verifier: {
          verify: async (req) => ({
            complete: false,
            reason: `case ${req.iteration % 12} still fails: ${words(20, 3)}`,
          }),
        },
        reflector: {
          reflect: async (ctx) => ({
            summary: `Iteration ${ctx.iteration} fixed one case; ${words(30, ctx.iteration)}`,
            keyFindings: [`case ${ctx.iteration % 12} needs the lookahead`, words(12, ctx.iteration + 1)],
            rootCauses: ["the tokenizer drops trailing whitespace"],
            insights: [words(15, ctx.iteration + 2)],
            suggestions: ["run the corpus before claiming done", words(10, ctx.iteration + 3)],
          }),
        },
      }),
    },
    {
      name: "long outputs (60,000 characters)",
      goal,
      config: endless(iterations, { reflection: { enabled: false } }),
      ports: () => ({
        agent: {
          run: async (req) => result({ output: `${req.iteration}: ${"log line with some detail\n".repeat(2300)}` }),
        },
        scorers: [{ name: "progress", score: () => ({ score: 0.8 }) }],
      }),
    },
    {
      name: "handoff summaries (every iteration)",
      goal,
      config: endless(iterations, { reflection: { enabled: false } }),
      ports: () => ({
        agent: {
          run: async (req) =>
            result({
              ...demoAnswer(req),
              progress: { ...demoAnswer(req).progress, requestHandoff: true, nextSteps: [words(25, req.iteration)] },
            }),
        },
        scorers: [{ name: "progress", score: () => ({ score: 0.8 }) }],
      }),
    },
  ];
}

export { FakeClock };

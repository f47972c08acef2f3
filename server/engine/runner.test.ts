import { describe, expect, it } from "vitest";
import { isSuccess } from "./stop-types";
import type { Reflection } from "./agent-reports";
import type { ReflectorPort, ScorerPort, VerifierPort } from "./ports";
import { runLoop } from "./runner";
import { CollectingSink, FakeClock, ScriptedAgent } from "../../test/engine-fakes";
import { COMPLETION_PROTOCOL } from "./next-input";

const PROTOCOL = `\n\n[Completion protocol]\n${COMPLETION_PROTOCOL}`;

// The two scorers of OB's published example, as it defines them: the fraction
// of keywords present, and 1 from `minLength` characters on.
const keywordScorer = (keywords: string[]): ScorerPort => ({
  name: "keywords",
  score: ({ output }) => ({
    score: keywords.filter((k) => output.toLowerCase().includes(k.toLowerCase())).length / keywords.length,
  }),
});
const lengthScorer = (minLength: number): ScorerPort => ({
  name: "length",
  score: ({ output }) => ({ score: Math.min(1, output.trim().length / minLength) }),
});

const judge: ReflectorPort = {
  reflect: async (): Promise<Reflection> => ({
    summary: "The answer was incomplete.",
    keyFindings: ["Missing specific answer"],
    rootCauses: ["Insufficient confidence"],
    insights: ["Need to be more decisive"],
    suggestions: ["Provide a direct, specific answer"],
  }),
};

describe("OB's published example", () => {
  it("answers Paris on the third call and stops on score_threshold", async () => {
    const clock = new FakeClock();
    const agent = new ScriptedAgent(
      [
        { output: "I'm not sure about that." },
        { output: "I'm not sure about that." },
        { output: "The capital of France is Paris." },
      ],
      clock,
    );
    const result = await runLoop({
      goal: "What is the capital of France?",
      config: {
        validation: { minScoreThreshold: 0.8 },
        reflection: { enabled: true },
        stop: { maxIterations: 5, scoreThreshold: 0.9 },
      },
      ports: { agent, scorers: [keywordScorer(["Paris", "capital"]), lengthScorer(10)], reflector: judge },
      deps: clock,
    });

    expect(result.output).toBe("The capital of France is Paris.");
    expect(result.stopType).toBe("score_threshold");
    expect(isSuccess(result.stopType)).toBe(true);
    expect(result.iterations).toBe(3);
    expect(result.scores).toEqual({ keywords: 1, length: 1 });
    expect(result.reflections.map((r) => r.iteration)).toEqual([1, 2]);
    expect(result.reflections[0]?.summary).toBe("The answer was incomplete.");
    expect(agent.requests[0]?.input).toBe(`What is the capital of France?${PROTOCOL}`);
    expect(agent.requests[1]?.input).toBe(
      `What is the capital of France?${PROTOCOL}\n\n[Previous feedback]\n- Provide a direct, specific answer`,
    );
    expect(result.report.success).toBe(true);
    expect(result.report.status).toBe("completed");
    expect(result.snapshot.work.phase).toBe("COMPLETE");
  });
});

describe("evidence over claims", () => {
  const lying = (clock: FakeClock) =>
    new ScriptedAgent(
      [{ output: "All done, trust me.", claim: { done: true, text: "<promise>COMPLETE</promise>" } }],
      clock,
    );
  const weakScorer = { name: "quality", score: () => ({ score: 0.2 }) };

  it("a lying agent ends on a limit (no progress), never success", async () => {
    const clock = new FakeClock();
    const result = await runLoop({
      goal: "Ship the feature",
      config: { stop: { scoreThreshold: 0.9 } },
      ports: { agent: lying(clock), scorers: [weakScorer] },
      deps: clock,
    });
    expect(result.stopType).toBe("no_progress");
    expect(isSuccess(result.stopType)).toBe(false);
    expect(result.records.every((r) => r.claim.done && r.claimMismatch === "claimed_done_without_evidence")).toBe(true);
  });

  it.each([
    ["without any evidence source", {}, {}],
    ["with a verifier that disagrees", { verification: { enabled: true } }, { verifier: true }],
  ])("a lying agent %s runs to max_iterations", async (_label, config, extra) => {
    const clock = new FakeClock();
    const verifier: VerifierPort = { verify: async () => ({ complete: false, reason: "tests still fail" }) };
    const result = await runLoop({
      goal: "Ship the feature",
      config: { ...config, stop: { maxIterations: 4, noProgressIterations: 0 } },
      ports: { agent: lying(clock), ...("verifier" in extra ? { verifier } : {}) },
      deps: clock,
    });
    expect(result.stopType).toBe("max_iterations");
    expect(result.iterations).toBe(4);
    expect(result.records[0]?.claimMismatch).toBe("claimed_done_without_evidence");
  });

  it("completes on the verifier's evidence even when the agent does not claim done", async () => {
    const clock = new FakeClock();
    const verifier: VerifierPort = {
      verify: async ({ iteration }) => ({
        complete: iteration === 2,
        reason: iteration === 2 ? "all good" : "missing tests",
      }),
    };
    const agent = new ScriptedAgent([{ output: "work" }], clock);
    const result = await runLoop({
      goal: "Write tests",
      config: { verification: { enabled: true } },
      ports: { agent, verifier },
      deps: clock,
    });
    expect(result.stopType).toBe("completion");
    expect(result.iterations).toBe(2);
    expect(result.records[1]?.claimMismatch).toBe("evidence_done_without_claim");
    expect(agent.requests[1]?.input).toContain("[Verifier]\nmissing tests");
  });

  it("requireClaim makes evidence wait for the claim", async () => {
    const clock = new FakeClock();
    const agent = new ScriptedAgent([{ output: "x" }, { output: "x", claim: { done: true } }], clock);
    const result = await runLoop({
      goal: "g",
      config: { completion: { requireClaim: true }, stop: { scoreThreshold: 0.5 } },
      ports: { agent, scorers: [{ name: "s", score: () => ({ score: 1 }) }] },
      deps: clock,
    });
    expect(result.stopType).toBe("score_threshold");
    expect(result.iterations).toBe(2);
  });
});

describe("events", () => {
  it("streams the loop's lifecycle to the sink", async () => {
    const clock = new FakeClock();
    const sink = new CollectingSink();
    await runLoop({
      goal: "g",
      config: { stop: { maxIterations: 1 } },
      ports: { agent: new ScriptedAgent([{}], clock), events: sink },
      deps: clock,
    });
    expect(sink.types()).toEqual([
      "loop_started",
      "status_changed",
      "iteration_started",
      "iteration_finished",
      "status_changed",
      "halted",
      "checkpoint_created",
    ]);
    expect(sink.events.every((e) => e.actor && e.reason !== undefined && e.loopId)).toBe(true);
  });
});

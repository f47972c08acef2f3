import { describe, expect, it } from "vitest";
import type { ScorerPort, VerifierPort } from "./ports";
import { runLoop } from "./runner";
import { CollectingSink, FakeClock, result, ScriptedAgent, type AgentStep } from "../../test/engine-fakes";
import { sortedTrace, span } from "./trace";

// Each part advances the fake clock by a known amount, so the trace is exact.
const slowScorer = (name: string, ms: number, clock: FakeClock): ScorerPort => ({
  name,
  score: async () => {
    clock.advance(ms);
    return { score: 0.2 };
  },
});

async function traced(extra: (clock: FakeClock) => Record<string, unknown>, config: Record<string, unknown> = {}) {
  const clock = new FakeClock();
  const step: AgentStep = (_req, c) => {
    c.advance(1000);
    return result();
  };
  const agent = new ScriptedAgent([step], clock);
  const run = await runLoop({
    goal: "g",
    config: { stop: { maxIterations: 1 }, completion: { allowNoEvidence: true }, ...config },
    ports: { agent, events: new CollectingSink(), ...extra(clock) },
    deps: clock,
  });
  const record = run.records[0]!;
  return { record, trace: record.trace ?? [], start: record.startedAt };
}

describe("iteration trace", () => {
  it("times the agent, each scorer, the verifier and the reflector on the engine clock", async () => {
    const { trace, start } = await traced(
      (clock) => ({
        scorers: [slowScorer("lint", 200, clock), slowScorer("tests", 300, clock)],
        verifier: {
          verify: async () => {
            clock.advance(400);
            return { complete: false, reason: "not yet" };
          },
        } satisfies VerifierPort,
        reflector: {
          reflect: async () => {
            clock.advance(50);
            return { summary: "s", keyFindings: [], rootCauses: [], insights: [], suggestions: [] };
          },
        },
      }),
      { validation: { parallel: 1 } },
    );
    expect(trace.map((s) => [s.kind, s.name, s.startedAt - start, s.durationMs])).toEqual([
      ["agent", "agent", 0, 1000],
      ["scorer", "lint", 1000, 200],
      ["scorer", "tests", 1200, 300],
      ["verifier", "verifier", 1500, 400],
      ["reflector", "reflector", 1900, 50],
    ]);
  });

  it("leaves out parts that did not run", async () => {
    const { trace } = await traced(() => ({}), { reflection: { enabled: false } });
    expect(trace.map((s) => s.kind)).toEqual(["agent"]);
  });

  it("sorts spans by start, kind breaking ties", () => {
    expect(
      sortedTrace([span("scorer", "b", 5, 9), span("agent", "agent", 0, 5), span("scorer", "a", 5, 6)]).map(
        (s) => s.name,
      ),
    ).toEqual(["agent", "b", "a"]);
    expect(span("agent", "agent", 10, 4).durationMs).toBe(0);
  });
});

// question.policy and the needs_attention state, driven end to end through
// runLoop with a scripted agent that asks, and controls sent at chosen polls.
import { describe, expect, it } from "vitest";
import { CollectingSink, FakeClock, FakeControls, ScriptedAgent } from "../../test/engine-fakes";
import type { ControlCommand } from "./control-commands";
import { runLoop, type StepOutcome } from "./runner";

const ASKS = "I read the code.\n\nShould add() also accept strings? Please confirm.";

async function run(
  policy: string | undefined,
  onAttention: (n: number) => ControlCommand[],
  steps = [{ output: ASKS }],
  maxIterations = 3,
) {
  const clock = new FakeClock();
  const agent = new ScriptedAgent(steps, clock);
  const sink = new CollectingSink();
  const controls = new FakeControls();
  const outcomes: StepOutcome[] = [];
  let waits = 0;
  const result = await runLoop({
    goal: "Fix add()",
    config: {
      stop: { maxIterations, noProgressIterations: 0 },
      completion: { allowNoEvidence: true },
      ...(policy ? { question: { policy } } : {}),
    },
    ports: { agent, events: sink },
    controls,
    deps: clock,
    onStep: (o) => {
      outcomes.push(o);
      if (o.decision.kind === "await_answer") {
        for (const command of onAttention(++waits)) controls.add(command, "ops");
      }
    },
  });
  return { result, agent, sink, controls, outcomes };
}

const inputs = (agent: ScriptedAgent) => agent.requests.map((r) => r.input);

describe("question.policy", () => {
  it("ask (the default): the loop waits in needs_attention and the answer reaches the next input", async () => {
    const { result, agent, sink } = await run(undefined, (n) =>
      n === 1 ? [{ kind: "answer", message: "Numbers only." }] : [{ kind: "terminate" }],
    );
    expect(result.stopType).toBe("explicit_stop");
    expect(agent.requests).toHaveLength(2);
    expect(inputs(agent)[1]).toContain("The operator answered:\n> Numbers only.\nFollow this answer");
    expect(inputs(agent)[1]).not.toContain("No operator is answering");
    const statuses = sink.events.flatMap((e) => (e.type === "status_changed" ? [e.to] : []));
    expect(statuses).toEqual(["running", "needs_attention", "running", "needs_attention", "stopped"]);
    const asked = sink.events.filter((e) => e.type === "attention_needed");
    expect(asked).toHaveLength(2);
    expect(asked[0]).toMatchObject({ actor: "engine", question: "Should add() also accept strings? Please confirm." });
    const applied = sink.events.find((e) => e.type === "control_applied" && e.command === "answer");
    expect(applied).toMatchObject({ actor: "ops" });
  });

  it("ask: continuing without an answer sends the standing instruction", async () => {
    const { agent } = await run("ask", (n) =>
      n === 1 ? [{ kind: "answer", message: "  " }] : [{ kind: "terminate" }],
    );
    expect(inputs(agent)[1]).toContain("No operator is answering. Make a reasonable choice, state it, and continue.");
  });

  it("ask: an answer while the loop is not waiting is rejected, and a nudge is not an answer", async () => {
    const { controls, agent } = await run("ask", (n) =>
      n === 1 ? [{ kind: "nudge", message: "look at README" }] : [{ kind: "terminate" }],
    );
    // The nudge is applied but the loop still waits: only an answer (or a stop) moves it on.
    expect(agent.requests).toHaveLength(1);
    expect(controls.acks.map((a) => a.outcome)).toEqual(["applied", "applied"]);
    const late = new FakeControls();
    late.add({ kind: "answer", message: "too late" });
    const clock = new FakeClock();
    const result = await runLoop({
      goal: "g",
      config: { stop: { maxIterations: 1 }, completion: { allowNoEvidence: true } },
      ports: { agent: new ScriptedAgent([{ output: "done." }], clock), events: new CollectingSink() },
      controls: late,
      deps: clock,
    });
    expect(result.stopType).toBe("max_iterations");
    expect(late.acks[0]).toMatchObject({ outcome: "rejected", note: "the loop is not waiting for an answer" });
  });

  it.each([
    ["auto-answer", "No operator is answering. Make a reasonable choice, state it, and continue."],
    ["ignore", null],
  ])("%s: the loop never waits", async (policy, section) => {
    const { result, agent, sink } = await run(policy, () => [{ kind: "terminate" }]);
    expect(result.stopType).toBe("max_iterations");
    expect(agent.requests).toHaveLength(3);
    expect(sink.events.some((e) => e.type === "attention_needed")).toBe(false);
    if (section) expect(inputs(agent)[1]).toContain(section);
    else expect(inputs(agent)[1]).not.toContain("[Agent question]");
  });

  it("a pause over a question: resume returns to needs_attention, not to running", async () => {
    const { sink, agent } = await run("ask", (n) =>
      n === 1 ? [{ kind: "interrupt" }, { kind: "resume" }] : n === 2 ? [{ kind: "terminate" }] : [],
    );
    expect(agent.requests).toHaveLength(1);
    const statuses = sink.events.flatMap((e) => (e.type === "status_changed" ? [e.to] : []));
    expect(statuses).toEqual(["running", "needs_attention", "paused", "needs_attention", "stopped"]);
  });
  it("ask on the last allowed iteration: the loop waits for the answer instead of stopping at max_iterations", async () => {
    const { result, agent, sink, controls } = await run(
      "ask",
      (n) => (n === 1 ? [{ kind: "answer", message: "Numbers only." }] : [{ kind: "terminate" }]),
      [{ output: ASKS }],
      1,
    );
    const statuses = sink.events.flatMap((e) => (e.type === "status_changed" ? [e.to] : []));
    expect(statuses.slice(0, 2)).toEqual(["running", "needs_attention"]);
    expect(sink.events.filter((e) => e.type === "attention_needed")).toHaveLength(1);
    expect(controls.acks[0]).toMatchObject({ outcome: "applied" });
    // Answered, the allowance still holds: the loop stops at its maximum without another call.
    expect(agent.requests).toHaveLength(1);
    expect(result.stopType).toBe("max_iterations");
  });
});

import { describe, expect, it } from "vitest";
import type { ControlCommand } from "./control-commands";
import { runLoop, type StepOutcome } from "./runner";
import { CollectingSink, FakeClock, FakeControls, ScriptedAgent } from "../../test/engine-fakes";
import { COMPLETION_PROTOCOL } from "./next-input";

const PROTOCOL = `\n\n[Completion protocol]\n${COMPLETION_PROTOCOL}`;

/** Queues each command when the given poll happens (poll 1 is before iteration 1). */
function scheduled(plan: Record<number, ControlCommand[]>, by = "alice"): FakeControls {
  const controls = new FakeControls();
  controls.onRead = (n, c) => {
    for (const command of plan[n] ?? []) c.add(command, by);
  };
  return controls;
}

async function run(config: Record<string, unknown>, controls: FakeControls, steps = [{}], extra = {}) {
  const clock = new FakeClock();
  const agent = new ScriptedAgent(steps, clock);
  const sink = new CollectingSink();
  const outcomes: StepOutcome[] = [];
  const result = await runLoop({
    goal: "Build it",
    config,
    ports: { agent, events: sink, ...extra },
    controls,
    deps: clock,
    onStep: (o) => {
      outcomes.push(o);
    },
  });
  return { result, agent, sink, clock, outcomes };
}

const always = (value: number) => ({ name: "s", score: () => ({ score: value }) });

describe("operator controls", () => {
  it("interrupt pauses after the iteration; resume continues", async () => {
    // Poll 1: preflight of iteration 1. Poll 2: its Halt phase. Then paused polls.
    const { result, sink, outcomes } = await run(
      { stop: { maxIterations: 2 } },
      scheduled({ 2: [{ kind: "interrupt" }], 5: [{ kind: "resume" }] }),
    );
    expect(result.stopType).toBe("max_iterations");
    const statuses = sink.events.flatMap((e) => (e.type === "status_changed" ? [e.to] : []));
    expect(statuses).toEqual(["running", "paused", "running", "stopped"]);
    expect(outcomes.filter((o) => o.decision.kind === "pause").length).toBeGreaterThanOrEqual(2);
  });

  it("nudges reach the next input once, under [Operator nudge]", async () => {
    const { agent } = await run(
      { stop: { maxIterations: 3 } },
      scheduled({ 2: [{ kind: "nudge", message: "Focus on the tests" }] }),
    );
    expect(agent.requests[1]?.input).toBe(`Build it${PROTOCOL}\n\n[Operator nudge]\n- Focus on the tests`);
    expect(agent.requests[2]?.input).toBe(`Build it${PROTOCOL}`);
  });

  it("force handoff puts a continuation prompt into the next input", async () => {
    const { agent, sink } = await run({ stop: { maxIterations: 2 } }, scheduled({ 2: [{ kind: "force_handoff" }] }), [
      { progress: { completedItems: ["schema"], pendingItems: ["api"], phase: "IMPLEMENTING" } },
    ]);
    const input = agent.requests[1]?.input ?? "";
    expect(input).toContain("[Continuation]\n## Handoff from Iteration 1");
    expect(input).toContain("**Phase:** IMPLEMENTING");
    expect(input).toContain("### Completed\n- schema");
    expect(agent.requests[1]?.continuation).toContain("## Handoff from Iteration 1");
    expect(sink.events.some((e) => e.type === "handoff" && e.trigger === "explicit_request")).toBe(true);
  });

  it("update_limits applies a valid patch and rejects an invalid one with the field name", async () => {
    const controls = scheduled({
      2: [
        { kind: "update_limits", patch: { validation: { minScoreThreshold: 2 } } },
        { kind: "update_limits", patch: { stop: { maxIterations: 2 } } },
      ],
    });
    const { result } = await run({}, controls);
    expect(result.iterations).toBe(2);
    expect(controls.acks.map((a) => [a.outcome, a.note])).toEqual([
      ["rejected", "validation.minScoreThreshold must be within [0,1]"],
      ["applied", "update_limits applied"],
    ]);
  });

  it("interrupt and kill are rejected when user interrupts are disabled", async () => {
    const controls = scheduled({ 2: [{ kind: "interrupt" }, { kind: "kill" }] });
    const { result } = await run({ stop: { maxIterations: 2, enableUserInterrupt: false } }, controls);
    expect(result.stopType).toBe("max_iterations");
    expect(controls.acks.every((a) => a.outcome === "rejected")).toBe(true);
  });

  it("approval commands without a gate are rejected", async () => {
    const controls = scheduled({ 1: [{ kind: "approve" }, { kind: "resume" }, { kind: "nudge", message: " " }] });
    await run({ stop: { maxIterations: 1 } }, controls);
    expect(controls.acks.map((a) => a.note)).toEqual([
      "no approval is pending",
      "the loop is not paused",
      "a nudge needs a message",
    ]);
  });
});

describe("approval gates", () => {
  const completionGate = {
    approvals: { beforeCompletion: { enabled: true, deadline: 600 } },
    stop: { scoreThreshold: 0.5 },
  };

  it("before completion: approve completes, recorded with the approver", async () => {
    const { result, sink } = await run(
      completionGate,
      scheduled({ 3: [{ kind: "approve", comment: "ship it" }] }, "erin"),
      [{}],
      { scorers: [always(1)] },
    );
    expect(result.stopType).toBe("score_threshold");
    expect(result.snapshot.halt?.actor).toBe("erin");
    expect(sink.types()).toContain("approval_requested");
    const decided = sink.events.find((e) => e.type === "approval_decided");
    expect(decided).toMatchObject({ decision: "approve", comment: "ship it", byDefault: false, actor: "erin" });
  });

  it("before completion: request changes keeps iterating with the comment", async () => {
    const controls = scheduled({ 3: [{ kind: "request_changes", comment: "add docs" }], 6: [{ kind: "approve" }] });
    const { result, agent } = await run(completionGate, controls, [{}], { scorers: [always(1)] });
    expect(result.iterations).toBe(2);
    expect(result.stopType).toBe("score_threshold");
    expect(agent.requests[1]?.input).toBe(`Build it${PROTOCOL}\n\n[Approval comment]\n- add docs`);
  });

  it("before completion: reject keeps iterating; terminate stops", async () => {
    const controls = scheduled({ 3: [{ kind: "reject" }], 6: [{ kind: "terminate" }] });
    const { result } = await run(completionGate, controls, [{}], { scorers: [always(1)] });
    expect(result.iterations).toBe(2);
    expect(result.stopType).toBe("explicit_stop");
  });

  it("a terminate a race sends its losing contenders stops with race_lost", async () => {
    const controls = scheduled({ 3: [{ kind: "terminate", stopType: "race_lost" }] });
    const { result } = await run(completionGate, controls, [{}], { scorers: [always(1)] });
    expect(result.stopType).toBe("race_lost");
    expect(result.snapshot.status).toBe("stopped");
  });

  it("a gate past its deadline takes the default action, by system", async () => {
    const { result, sink, clock } = await run(completionGate, new FakeControls(), [{}], { scorers: [always(1)] });
    expect(result.stopType).toBe("score_threshold");
    const decided = sink.events.find((e) => e.type === "approval_decided");
    expect(decided).toMatchObject({ decision: "approve", byDefault: true, actor: "system" });
    expect(clock.now() - result.snapshot.createdAt).toBeGreaterThanOrEqual(600_000);
  });

  it("a stale gate id is rejected", async () => {
    const controls = scheduled({ 3: [{ kind: "approve", gateId: "old" }, { kind: "terminate" }] });
    const { result } = await run(completionGate, controls, [{}], { scorers: [always(1)] });
    expect(controls.acks[0]).toMatchObject({ outcome: "rejected", note: "gate old is no longer pending" });
    expect(result.stopType).toBe("explicit_stop");
  });

  it("budget gate opens once per percentage; its default reject pauses", async () => {
    const controls = scheduled({ 3: [{ kind: "approve" }] });
    const clock = new FakeClock();
    const sink = new CollectingSink();
    const config = {
      budget: { maxCostUsd: 10, throttleAt: 1 },
      approvals: { budget: { enabled: true, percents: [10, 20], deadline: 60 } },
      stop: { maxIterations: 4, noProgressIterations: 0 },
    };
    const result = await runLoop({
      goal: "g",
      config,
      ports: { agent: new ScriptedAgent([{ costUsd: 1.5 }], clock), events: sink },
      controls,
      deps: clock,
      onStep: (o) => {
        if (o.decision.kind === "pause") controls.add({ kind: "terminate" }, "frank");
      },
    });
    const gates = sink.events.flatMap((e) => (e.type === "approval_decided" ? [[e.decision, e.byDefault]] : []));
    // 15% crosses 10 (approved by alice); 30% crosses 20 (default reject after 60s: paused).
    expect(gates).toEqual([
      ["approve", false],
      ["reject", true],
    ]);
    expect(result.iterations).toBe(2);
    expect(result.stopType).toBe("explicit_stop");
  });

  it("periodic gate every N iterations", async () => {
    // The operator approves each gate at the first safe point after it opens
    // (not at fixed read counts, which would let the gate's deadline decide).
    const sink = new CollectingSink();
    const count = (type: string) => sink.events.filter((e) => e.type === type).length;
    const controls = new FakeControls();
    controls.onRead = (_, c) => {
      const open = count("approval_requested") > count("approval_decided");
      if (open && c.pending.length === 0) c.add({ kind: "approve" });
    };
    const { result } = await run(
      { approvals: { periodic: { every: 2 } }, stop: { maxIterations: 5, noProgressIterations: 0 } },
      controls,
      [{}],
      { events: sink },
    );
    const requested = sink.events.flatMap((e) => (e.type === "approval_requested" ? [e.iteration] : []));
    expect(requested).toEqual([2, 4]);
    const decided = sink.events.flatMap((e) => (e.type === "approval_decided" ? [[e.decision, e.byDefault]] : []));
    expect(decided).toEqual([
      ["approve", false],
      ["approve", false],
    ]);
    expect(result.stopType).toBe("max_iterations");
  });
});

describe("budget actions in the loop", () => {
  it("throttles, then denies before the next iteration would pass the budget", async () => {
    const { result, sink, clock } = await run(
      { budget: { maxCostUsd: 1, throttleAt: 0.5, throttleBaseDelayMs: 1000 }, stop: { noProgressIterations: 0 } },
      new FakeControls(),
      [{ costUsd: 0.3 }],
    );
    expect(result.stopType).toBe("budget_exhausted");
    // $0.90 spent + $0.30 expected would pass $1: denied at 3 iterations (it used to run a 4th to $1.20).
    expect(result.iterations).toBe(3);
    expect(result.report.costUsd).toBeCloseTo(0.9);
    const delays = sink.events.flatMap((e) => (e.type === "throttled" ? [e.delayMs] : []));
    expect(delays).toEqual([1000]);
    // Enforce mode alerts too, once, with the numbers (issue 31: no budget alert was sent).
    const alerts = sink.events.filter((e) => e.type === "budget_alert");
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ action: "THROTTLE", usedFraction: 0.6, costUsd: 0.6, maxCostUsd: 1 });
    expect(alerts[0]!.reason).toBe(
      "60.0% of budget used ($0.60 of $1.00): throttled from 50.0%, the next iteration waits 1 s",
    );
    expect(clock.sleeps).toEqual(expect.arrayContaining([1000]));
  });

  it("alert-only never blocks", async () => {
    const { result, sink } = await run(
      { budget: { maxCostUsd: 1, mode: "alert_only" }, stop: { maxIterations: 5, noProgressIterations: 0 } },
      new FakeControls(),
      [{ costUsd: 0.5 }],
    );
    expect(result.stopType).toBe("max_iterations");
    expect(sink.events.filter((e) => e.type === "budget_alert").length).toBe(3);
  });

  it("pacing waits between iterations", async () => {
    const { result, clock } = await run({ pacing: { delayMs: 2500 }, stop: { maxIterations: 3 } }, new FakeControls());
    expect(result.iterations).toBe(3);
    expect(clock.now() - result.snapshot.createdAt).toBeGreaterThanOrEqual(5000);
  });
});

// Every control request is answered exactly once, by the one driver, whatever
// safe point reads it first; and a kill always pauses.
import { describe, expect, it } from "vitest";
import type { ControlCommand } from "./control-commands";
import { runLoop } from "./runner";
import {
  CollectingSink,
  FakeClock,
  FakeControls,
  hangingStep,
  ScriptedAgent,
  type AgentStep,
} from "../../test/engine-fakes";

async function run(config: Record<string, unknown>, controls: FakeControls, steps: AgentStep[] = [{}], extra = {}) {
  const clock = new FakeClock();
  const agent = new ScriptedAgent(steps, clock);
  const sink = new CollectingSink();
  const result = await runLoop({
    goal: "Build it",
    config,
    ports: { agent, events: sink, ...extra },
    deps: clock,
    controls,
  });
  const statuses = sink.events.flatMap((e) => (e.type === "status_changed" ? [e.to] : []));
  return { result, agent, sink, statuses };
}

/** Each request id has exactly one ack and exactly one control_applied/control_rejected event. */
function expectAnsweredOnce(controls: FakeControls, sink: CollectingSink, ids: string[]) {
  for (const id of ids) {
    expect(
      controls.acks.filter((a) => a.requestId === id),
      id,
    ).toHaveLength(1);
    const answers = sink.events.filter(
      (e) => (e.type === "control_applied" || e.type === "control_rejected") && e.requestId === id,
    );
    expect(answers, id).toHaveLength(1);
  }
}

const always = (value: number) => ({ name: "s", score: () => ({ score: value }) });

describe("exactly once", () => {
  it("a request read before the iteration is not applied again in its Halt phase", async () => {
    // The queue settles only after the step, so the Halt phase reads the nudge again.
    const controls = new FakeControls();
    controls.add({ kind: "nudge", message: "check the README" });
    const { agent, sink } = await run({ stop: { maxIterations: 3 } }, controls);
    expect(agent.requests.map((r) => r.input.includes("check the README"))).toEqual([true, false, false]);
    expectAnsweredOnce(controls, sink, ["req-1"]);
  });

  it("nudge, edit limits and resume sent to a paused loop are each answered once", async () => {
    const controls = new FakeControls();
    const sent: Record<number, ControlCommand[]> = {
      2: [{ kind: "interrupt" }],
      4: [
        { kind: "nudge", message: "focus on the tests" },
        { kind: "update_limits", patch: { stop: { maxIterations: 3 } } },
        { kind: "resume" },
      ],
    };
    controls.onRead = (n, c) => sent[n]?.forEach((command) => c.add(command));
    const { result, agent, sink, statuses } = await run({ stop: { maxIterations: 10 } }, controls);
    expect(result.iterations).toBe(3);
    expect(statuses).toEqual(["running", "paused", "running", "stopped"]);
    expect(agent.requests.map((r) => r.input.includes("focus on the tests"))).toEqual([false, true, false]);
    expect(sink.events.filter((e) => e.type === "limits_updated")).toHaveLength(1);
    expect(sink.events.filter((e) => e.type === "control_rejected")).toEqual([]);
    expectAnsweredOnce(controls, sink, ["req-1", "req-2", "req-3", "req-4"]);
  });

  it("a kill aborts the agent once: the watch sees it, the Halt phase answers it, nothing re-reads it", async () => {
    const controls = new FakeControls();
    controls.onRead = (n, c) => {
      if (n === 2) c.add({ kind: "kill" }, "carol", "runaway");
      if (c.acks.length === 1 && c.pending.length === 0) c.add({ kind: "terminate" }, "carol");
    };
    const { result, sink } = await run({ stop: { maxIterations: 5 } }, controls, [hangingStep()]);
    expect(result.records.map((r) => r.status)).toEqual(["interrupted"]);
    expect(controls.acks[0]).toMatchObject({ requestId: "req-1", outcome: "applied" });
    expect(controls.acks[0]!.note).toMatch(/agent was aborted/);
    expectAnsweredOnce(controls, sink, ["req-1", "req-2"]);
    expect(result.stopType).toBe("explicit_stop");
  });

  it("a kill in the last allowed iteration pauses the loop instead of stopping it", async () => {
    const controls = new FakeControls();
    let resumed = false;
    controls.onRead = (n, c) => {
      if (n === 2) c.add({ kind: "kill" }, "carol");
      // Paused: the operator raises the limit and resumes.
      if (!resumed && c.acks.some((a) => a.requestId === "req-1")) {
        resumed = true;
        c.add({ kind: "update_limits", patch: { stop: { maxIterations: 2 } } });
        c.add({ kind: "resume" });
      }
    };
    const { result, statuses } = await run({ stop: { maxIterations: 1 } }, controls, [hangingStep(), {}]);
    expect(result.records.map((r) => r.status)).toEqual(["interrupted", "succeeded"]);
    expect(statuses).toEqual(["running", "paused", "running", "stopped"]);
    expect(result.stopType).toBe("max_iterations");
  });

  it("kill while awaiting approval pauses at once; resume brings the approval back; approve completes", async () => {
    const controls = new FakeControls();
    const script: [(c: FakeControls) => boolean, ControlCommand][] = [
      [(c) => c.reads > 2, { kind: "kill" }],
      [(c) => c.acks.length === 1, { kind: "resume" }],
      [(c) => c.acks.length === 2, { kind: "approve", comment: "ship it" }],
    ];
    controls.onRead = (_n, c) => {
      const next = script[0];
      if (next && c.pending.length === 0 && next[0](c)) c.add(script.shift()![1], "erin");
    };
    const config = { approvals: { beforeCompletion: { enabled: true, deadline: 0 } }, stop: { scoreThreshold: 0.5 } };
    const { result, sink, statuses } = await run(config, controls, [{}], { scorers: [always(1)] });
    expect(statuses).toEqual(["running", "awaiting_approval", "paused", "awaiting_approval", "completed"]);
    expect(result.stopType).toBe("score_threshold");
    expect(result.iterations).toBe(1);
    expectAnsweredOnce(controls, sink, ["req-1", "req-2", "req-3"]);
    expect(controls.acks.map((a) => a.outcome)).toEqual(["applied", "applied", "applied"]);
  });
});

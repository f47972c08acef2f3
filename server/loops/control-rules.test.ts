// Every (loop state x control) pair: whether it is allowed, and what the
// service does with it (refuse, finalize a draft, defer to the runtime that
// holds the loop, or apply it at once and leave the loop in which status).
import { describe, expect, it } from "vitest";
import {
  applyControls,
  controlKinds,
  createLoop,
  haltLoop,
  openGate,
  type ControlCommand,
  type ControlKind,
  type LoopSnapshot,
} from "../engine";
import { controlStateOf, planControl, type ControlTarget } from "./control-plan";
import { controlAllowed, displayStatus, isTerminal, loopAvailability } from "./control-rules";

const NOW = Date.UTC(2026, 0, 1, 12);
let ids = 0;
const clock = { now: () => NOW - 60_000, newId: () => `id-${++ids}` };
const fresh = (config: Record<string, unknown> = {}) =>
  createLoop("goal", { pacing: { delayMs: 0 }, ...config }, clock);
const ran = (s: LoopSnapshot): LoopSnapshot => ({
  ...s,
  status: "running",
  state: { ...s.state, iteration: 1 },
  last: { ...s.last, number: 1, finishedAt: NOW - 1_000 },
});
const paused = (s: LoopSnapshot) => applyControls(s, [request({ kind: "interrupt" })], NOW - 500).snapshot;
const gated = (s: LoopSnapshot) =>
  openGate(s, { kind: "periodic", reason: "review", stopType: null, percent: null }, clock, NOW - 500, []);

function request(command: ControlCommand) {
  return { id: `r-${command.kind}`, requestedAt: NOW, by: "ops@example.com", command };
}

const COMMANDS: Record<ControlKind, ControlCommand> = {
  interrupt: { kind: "interrupt" },
  kill: { kind: "kill" },
  resume: { kind: "resume" },
  force_handoff: { kind: "force_handoff" },
  nudge: { kind: "nudge", message: "check the README" },
  approve: { kind: "approve", comment: "fine" },
  reject: { kind: "reject" },
  request_changes: { kind: "request_changes", comment: "shorter" },
  terminate: { kind: "terminate" },
  update_limits: { kind: "update_limits", patch: { stop: { maxIterations: 5 } } },
  answer: { kind: "answer", message: "yes, accept strings too" },
};

const target = (status: string, snapshot: LoopSnapshot, extra: Partial<ControlTarget> = {}): ControlTarget => ({
  status,
  leased: false,
  pendingKinds: [],
  snapshot,
  ...extra,
});
const asked = (s: LoopSnapshot): LoopSnapshot => ({
  ...s,
  status: "needs_attention",
  attention: { question: "Should add() accept strings?", iteration: 1, askedAt: NOW - 500 },
});
const waiting = { ...ran(fresh({ pacing: { delayMs: 60_000 } })) };
const halted = (stop: "completion" | "system_error" | "max_iterations" | "cancelled") =>
  haltLoop(ran(fresh()), stop, "done", "engine", NOW - 100, []);

const STATES: Record<string, ControlTarget> = {
  draft: target("draft", fresh()),
  queued: target("queued", fresh()),
  running: target("running", ran(fresh()), { leased: true }),
  interrupting: target("running", ran(fresh()), { leased: true, pendingKinds: ["interrupt"] }),
  waiting: target("waiting", waiting),
  paused: target("paused", paused(ran(fresh()))),
  awaiting_approval: target("awaiting_approval", gated(ran(fresh()))),
  paused_over_gate: target("paused", paused(gated(ran(fresh())))),
  needs_attention: target("needs_attention", asked(ran(fresh()))),
  paused_over_question: target("paused", paused(asked(ran(fresh())))),
  completed: target("completed", halted("completion")),
  failed: target("failed", halted("system_error")),
  stopped: target("stopped", halted("max_iterations")),
  cancelled: target("cancelled", halted("cancelled")),
};

const R = "refuse";
const ended = Object.fromEntries(controlKinds.map((k) => [k, R])) as Record<ControlKind, string>;
// prettier-ignore
const EXPECTED: Record<string, Record<ControlKind, string>> = {
  // R: refused (CONFLICT); defer: the runtime holding the loop applies it; apply:<status>: applied at once.
  draft:             { interrupt: R, kill: R, resume: R, force_handoff: R, nudge: R, approve: R, reject: R, request_changes: R, terminate: "finalize", update_limits: R, answer: R },
  queued:            { interrupt: "apply:paused", kill: "apply:paused", resume: R, force_handoff: "apply:queued", nudge: "apply:queued", approve: R, reject: R, request_changes: R, terminate: "apply:stopped", update_limits: "apply:queued", answer: R },
  running:           { interrupt: "defer", kill: "defer", resume: R, force_handoff: "defer", nudge: "defer", approve: R, reject: R, request_changes: R, terminate: "defer", update_limits: "defer", answer: R },
  interrupting:      { interrupt: R, kill: "defer", resume: "defer", force_handoff: "defer", nudge: "defer", approve: R, reject: R, request_changes: R, terminate: "defer", update_limits: "defer", answer: R },
  waiting:           { interrupt: "apply:paused", kill: "apply:paused", resume: R, force_handoff: "apply:waiting", nudge: "apply:waiting", approve: R, reject: R, request_changes: R, terminate: "apply:stopped", update_limits: "apply:waiting", answer: R },
  paused:            { interrupt: R, kill: R, resume: "apply:queued", force_handoff: "apply:paused", nudge: "apply:paused", approve: R, reject: R, request_changes: R, terminate: "apply:stopped", update_limits: "apply:paused", answer: R },
  awaiting_approval: { interrupt: "apply:paused", kill: "apply:paused", resume: R, force_handoff: "apply:awaiting_approval", nudge: "apply:awaiting_approval", approve: "apply:queued", reject: "apply:paused", request_changes: "apply:queued", terminate: "apply:stopped", update_limits: "apply:awaiting_approval", answer: R },
  paused_over_gate:  { interrupt: R, kill: R, resume: "apply:awaiting_approval", force_handoff: "apply:paused", nudge: "apply:paused", approve: R, reject: R, request_changes: R, terminate: "apply:stopped", update_limits: "apply:paused", answer: R },
  needs_attention:   { interrupt: "apply:paused", kill: "apply:paused", resume: R, force_handoff: "apply:needs_attention", nudge: "apply:needs_attention", approve: R, reject: R, request_changes: R, terminate: "apply:stopped", update_limits: "apply:needs_attention", answer: "apply:queued" },
  paused_over_question: { interrupt: R, kill: R, resume: "apply:needs_attention", force_handoff: "apply:paused", nudge: "apply:paused", approve: R, reject: R, request_changes: R, terminate: "apply:stopped", update_limits: "apply:paused", answer: "apply:paused" },
  completed: ended,
  failed: ended,
  stopped: ended,
  cancelled: ended,
};

const cases = Object.entries(STATES).flatMap(([state, t]) => controlKinds.map((kind) => [state, kind, t] as const));

describe("every loop state x every control", () => {
  it("the table names every state and every control", () => {
    expect(Object.keys(EXPECTED).sort()).toEqual(Object.keys(STATES).sort());
    for (const row of Object.values(EXPECTED)) expect(Object.keys(row).sort()).toEqual([...controlKinds].sort());
  });

  it.each(cases)("%s + %s", (state, kind, t) => {
    const plan = planControl(t, request(COMMANDS[kind]), NOW);
    const label = plan.kind === "apply" ? `apply:${plan.status}` : plan.kind;
    expect(label).toBe(EXPECTED[state]![kind]);
    // Availability and the API agree: refused exactly when not allowed.
    const allowed = controlAllowed(controlStateOf(t), kind);
    expect(allowed.allowed).toBe(plan.kind !== "refuse");
    if (plan.kind === "refuse") expect(plan.reason).toBe(allowed.reason);
    if (plan.kind === "apply") {
      // Applied once: one ack, one control_applied event, no rejection.
      expect(plan.ack).toMatchObject({ requestId: `r-${kind}`, outcome: "applied" });
      const answers = plan.events.filter((e) => e.type === "control_applied" || e.type === "control_rejected");
      expect(answers.map((e) => e.type)).toEqual(["control_applied"]);
      expect(plan.wake).toBe(plan.status === "queued");
    }
  });
});

describe("what the operator sees", () => {
  it("interrupts disabled by config refuse interrupt and kill everywhere", () => {
    const noInterrupts = fresh({ stop: { enableUserInterrupt: false } });
    for (const kind of ["interrupt", "kill"] as const) {
      const plan = planControl(target("queued", noInterrupts), request(COMMANDS[kind]), NOW);
      expect(plan).toEqual({ kind: "refuse", reason: "user interrupts are disabled by this loop's config" });
    }
  });

  it("a stale gate id is refused with the engine's reason", () => {
    const plan = planControl(STATES.awaiting_approval!, request({ kind: "approve", gateId: "old" }), NOW);
    expect(plan).toEqual({ kind: "refuse", reason: "gate old is no longer pending" });
  });

  it("displayStatus says interrupting only while an interrupt waits on a live loop", () => {
    expect(displayStatus({ status: "running", pendingKinds: ["kill"] })).toBe("interrupting");
    expect(displayStatus({ status: "running", pendingKinds: ["nudge"] })).toBe("running");
    expect(displayStatus({ status: "paused", pendingKinds: ["interrupt"] })).toBe("paused");
  });

  it("isTerminal is the engine's one list", () => {
    expect(["completed", "failed", "stopped", "cancelled"].filter(isTerminal)).toHaveLength(4);
    expect(["draft", "queued", "running", "waiting", "paused", "awaiting_approval"].some(isTerminal)).toBe(false);
  });

  it("loopAvailability covers start and fork, and a viewer may do nothing", () => {
    const state = { ...controlStateOf(STATES.draft!), iterations: 0 };
    const draft = loopAvailability(state);
    expect(draft.start).toEqual({ allowed: true, reason: null });
    expect(draft.fork).toEqual({ allowed: false, reason: "there is no iteration to fork from yet" });
    expect(draft.terminate.allowed).toBe(true);
    const done = loopAvailability({ ...controlStateOf(STATES.completed!), iterations: 3 });
    expect(done.start.reason).toMatch(/fork it to run again/);
    expect(done.fork.allowed).toBe(true);
    const viewer = loopAvailability({ ...controlStateOf(STATES.paused!), iterations: 1 }, { canOperate: false });
    expect(Object.values(viewer).every((a) => !a.allowed && a.reason === "your role can only view loops")).toBe(true);
  });
});

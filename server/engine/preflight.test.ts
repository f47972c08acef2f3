import { describe, expect, it } from "vitest";
import { applyControls } from "./controls";
import { expireGate, openGate, resolveGate } from "./gates";
import type { ControlCommand, ControlRequest } from "./control-commands";
import { beforeIteration } from "./preflight";
import { createLoop, type LoopSnapshot } from "./snapshot";
import { FakeClock } from "../../test/engine-fakes";

const clock = new FakeClock(0);
const req = (command: ControlCommand, by = "ops"): ControlRequest => ({
  id: `r-${command.kind}`,
  requestedAt: 0,
  by,
  command,
});
const at = (now: number) => ({ now: () => now });
const fresh = (config: Record<string, unknown> = {}) => createLoop("g", config, clock);

describe("beforeIteration", () => {
  it("starts the loop: loop_started, running, run", () => {
    const pre = beforeIteration(fresh(), [], at(0));
    expect(pre.decision).toEqual({ kind: "run" });
    expect(pre.snapshot.status).toBe("running");
    expect(pre.events.map((e) => e.type)).toEqual(["loop_started", "status_changed"]);
  });

  it("a halted loop stays halted and rejects further controls", () => {
    const halted = beforeIteration(fresh(), [req({ kind: "terminate" })], at(0));
    expect(halted.decision).toMatchObject({ kind: "halt", stopType: "explicit_stop" });
    const again = beforeIteration(halted.snapshot, [req({ kind: "resume" })], at(1));
    expect(again.decision).toMatchObject({ kind: "halt", stopType: "explicit_stop" });
    expect(again.acks[0]).toMatchObject({ outcome: "rejected", note: "the loop has already halted" });
  });

  it("re-checks limits: a lowered maxIterations or an elapsed timeout halts before running", () => {
    const s: LoopSnapshot = { ...fresh(), state: { ...fresh().state, iteration: 3 } };
    const lowered = beforeIteration(s, [req({ kind: "update_limits", patch: { stop: { maxIterations: 2 } } })], at(0));
    expect(lowered.decision).toMatchObject({ kind: "halt", stopType: "max_iterations" });
    const running = fresh({ stop: { timeout: 10 } });
    const timedOut = beforeIteration({ ...running, state: { ...running.state, iteration: 1 } }, [], at(10_000));
    expect(timedOut.decision).toMatchObject({ kind: "halt", stopType: "timeout" });
  });

  it("waits out an open breaker, then allows one half-open trial", () => {
    const s: LoopSnapshot = {
      ...fresh({ health: { breaker: { cooldown: 30 } } }),
      breaker: { status: "open", failures: 5, openedAt: 1_000, trialFailed: false, trips: 1 },
    };
    expect(beforeIteration(s, [], at(2_000)).decision).toEqual({
      kind: "wait",
      untilMs: 31_000,
      reason: "breaker_cooldown",
      detail: "circuit breaker open",
    });
    const after = beforeIteration(s, [], at(31_000));
    expect(after.decision).toEqual({ kind: "run" });
    expect(after.snapshot.breaker.status).toBe("half_open");
  });

  it("throttle: waits once per iteration, then runs; the delay is remembered across calls", () => {
    const base = fresh({ budget: { maxCostUsd: 1, throttleBaseDelayMs: 500 } });
    const s: LoopSnapshot = { ...base, ledger: { ...base.ledger, totals: { ...base.ledger.totals, costUsd: 0.9 } } };
    const first = beforeIteration(s, [], at(0));
    expect(first.decision).toMatchObject({ kind: "wait", untilMs: 500, reason: "throttle" });
    expect(beforeIteration(first.snapshot, [], at(100)).decision).toMatchObject({ kind: "wait", untilMs: 500 });
    expect(beforeIteration(first.snapshot, [], at(500)).decision).toEqual({ kind: "run" });
    const allowed: LoopSnapshot = {
      ...first.snapshot,
      ledger: { ...first.snapshot.ledger, totals: base.ledger.totals },
    };
    expect(beforeIteration(allowed, [], at(600)).snapshot.ledger.throttles).toBe(0);
  });

  it("an interrupt or kill during a pending gate pauses at once; resume brings the approval back", () => {
    const gated = openGate(
      fresh(),
      { kind: "periodic", reason: "review", stopType: null, percent: null },
      clock,
      0,
      [],
    );
    for (const kind of ["interrupt", "kill"] as const) {
      const paused = beforeIteration(gated, [req({ kind })], at(1));
      expect(paused.decision.kind).toBe("pause");
      expect(paused.snapshot.status).toBe("paused");
      expect(paused.snapshot.gate?.id).toBe(gated.gate!.id);
      const approveWhilePaused = beforeIteration(paused.snapshot, [req({ kind: "approve" })], at(2));
      expect(approveWhilePaused.acks[0]).toMatchObject({ outcome: "rejected", note: expect.stringMatching(/paused/) });
      const resumed = beforeIteration(paused.snapshot, [req({ kind: "resume" })], at(3));
      expect(resumed.decision.kind).toBe("await_approval");
      expect(resumed.snapshot.status).toBe("awaiting_approval");
      const approved = beforeIteration(resumed.snapshot, [req({ kind: "approve" })], at(4));
      expect(approved.decision).toEqual({ kind: "run" });
    }
  });

  it("a paused loop's approval deadline waits until it is resumed", () => {
    const s = fresh({ approvals: { periodic: { every: 1, deadline: 5, defaultAction: "approve" } } });
    const gated = openGate(s, { kind: "periodic", reason: "r", stopType: null, percent: null }, clock, 0, []);
    const paused = beforeIteration(gated, [req({ kind: "interrupt" })], at(1)).snapshot;
    const later = beforeIteration(paused, [], at(60_000));
    expect(later.decision.kind).toBe("pause");
    expect(later.snapshot.gate).not.toBeNull();
    const resumed = beforeIteration(paused, [req({ kind: "resume" })], at(60_000));
    expect(resumed.decision).toEqual({ kind: "run" });
    expect(resumed.events.some((e) => e.type === "approval_decided" && e.byDefault)).toBe(true);
  });
});

describe("gates and controls, directly", () => {
  it("resume during a gate clears the pause but keeps awaiting approval", () => {
    const gated = openGate(fresh(), { kind: "budget", reason: "80%", stopType: null, percent: 80 }, clock, 0, []);
    const paused = applyControls(gated, [req({ kind: "interrupt" })], 1).snapshot;
    const resumed = applyControls(paused, [req({ kind: "resume" })], 2).snapshot;
    expect(resumed.pause).toBeNull();
    expect(resumed.status).toBe("awaiting_approval");
    expect(applyControls(paused, [req({ kind: "interrupt" })], 3).acks[0]?.note).toBe("already paused");
  });

  it("gates without a deadline never expire; resolving without a gate is a no-op", () => {
    const s = fresh({ approvals: { periodic: { every: 1, deadline: 0 } } });
    const gated = openGate(s, { kind: "periodic", reason: "r", stopType: null, percent: null }, clock, 0, []);
    expect(gated.gate?.deadlineAt).toBeNull();
    expect(expireGate(gated, 1e15, [])).toBe(gated);
    expect(resolveGate(s, { decision: "approve", comment: null, actor: "x" }, 0, [])).toBe(s);
  });

  it("a terminate default action halts with explicit_stop", () => {
    const s = fresh({ approvals: { periodic: { every: 1, deadline: 5, defaultAction: "terminate" } } });
    const gated = openGate(s, { kind: "periodic", reason: "r", stopType: null, percent: null }, clock, 0, []);
    const events: never[] = [];
    const expired = expireGate(gated, 5_000, events);
    expect(expired.halt).toMatchObject({ stopType: "explicit_stop", actor: "system" });
  });

  it("a force handoff before any iteration still renders a continuation", () => {
    const out = applyControls(fresh(), [req({ kind: "force_handoff" })], 0);
    expect(out.snapshot.plan.continuation).toContain("**Last Agent:** (none)");
    expect(out.snapshot.plan.handoffTrigger).toBe("explicit_request");
  });
});

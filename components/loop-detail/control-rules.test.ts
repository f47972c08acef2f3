import { describe, expect, it } from "vitest";
import { controlAvailability, type ControlName, type ControlState } from "./control-rules";

const enabled = (state: Partial<ControlState>) => {
  const table = controlAvailability({ status: "running", pendingKinds: [], iterations: 3, canOperate: true, ...state });
  return (Object.keys(table) as ControlName[]).filter((k) => table[k].enabled).sort();
};

// Mirrors server/loops/control-rules.test.ts: a control is offered exactly when
// decideControl would store (or finalize) it, never when it would refuse or no-op.
describe("controlAvailability", () => {
  it("running: everything but resume and the approval decisions", () => {
    expect(enabled({ status: "running" })).toEqual(["forceHandoff", "fork", "interrupt", "kill", "nudge", "share", "terminate", "updateLimits"]);
  });

  it("an interrupt pending: no second interrupt, resume cancels it, kill still escalates", () => {
    const on = enabled({ status: "running", pendingKinds: ["interrupt"] });
    expect(on).toContain("resume");
    expect(on).toContain("kill");
    expect(on).not.toContain("interrupt");
  });

  it("paused: resume, not interrupt or kill", () => {
    const on = enabled({ status: "paused" });
    expect(on).toContain("resume");
    expect(on).not.toContain("interrupt");
    expect(on).not.toContain("kill");
  });

  it("awaiting approval: the three decisions", () => {
    const on = enabled({ status: "awaiting_approval" });
    expect(on).toEqual(expect.arrayContaining(["approve", "reject", "requestChanges", "interrupt", "terminate"]));
  });

  it("ended: only fork and share, with the reason", () => {
    expect(enabled({ status: "completed" })).toEqual(["fork", "share"]);
    const table = controlAvailability({ status: "stopped", pendingKinds: [], iterations: 2, canOperate: true });
    expect(table.nudge.why).toBe("the loop has ended (stopped)");
  });

  it("draft: start or terminate", () => {
    expect(enabled({ status: "draft", iterations: 0 })).toEqual(["share", "start", "terminate"]);
  });

  it("no fork before the first iteration, and nothing for viewers", () => {
    expect(enabled({ iterations: 0 })).not.toContain("fork");
    expect(enabled({ canOperate: false })).toEqual([]);
  });
});

import { describe, expect, it } from "vitest";
import { ALERTABLE_EVENT_TYPES, noticeClassOf, noticeExcerpt, noticePath } from "./alert-kinds";

describe("notice classes", () => {
  it("classes each alertable event by what the operator must do", () => {
    const cases: [string, object, string | null][] = [
      ["attention_needed", { question: "Which port?" }, "question"],
      ["approval_requested", { gateId: "g", kind: "before_completion" }, "permission"],
      ["permission_requested", { toolName: "Bash", summary: "rm -rf build" }, "permission"],
      ["halted", { status: "failed", stopType: "health_failure" }, "error"],
      ["halted", { status: "completed", stopType: "completion" }, "done"],
      ["health_changed", { from: "degraded", to: "stuck" }, "stuck"],
      ["health_changed", { from: "degraded", to: "failing" }, "error"],
      ["alarm_raised", { alarm: "runaway" }, "stuck"],
      ["alarm_raised", { alarm: "silent" }, "stuck"],
      ["budget_alert", { action: "ALERT_ONLY" }, "budget"],
      ["limit_wait_started", { newPeriod: true }, "budget"],
      ["landing_landed", {}, "review"],
      ["landing_needs_review", {}, "review"],
      ["intervention", { level: "escalate" }, "error"],
      ["intervention", { level: "nudge" }, null],
      ["iteration_finished", {}, null],
    ];
    for (const [type, payload, cls] of cases) expect([type, noticeClassOf({ type, payload })]).toEqual([type, cls]);
  });

  it("every alertable event type has a class", () => {
    for (const type of ALERTABLE_EVENT_TYPES) {
      const payload = { newPeriod: true, to: "stuck", level: "escalate", alarm: "runaway" };
      expect([type, noticeClassOf({ type, payload })]).not.toEqual([type, null]);
    }
  });

  it("quotes why in a short excerpt and links a question to the answer box", () => {
    expect(noticeExcerpt({ type: "attention_needed", reason: null, payload: { question: "Which\n  port?" } })).toBe(
      "Which port?",
    );
    expect(noticeExcerpt({ type: "halted", reason: null, payload: { question: "x".repeat(300) } })).toHaveLength(160);
    expect(noticeExcerpt({ type: "landing_landed", reason: null, payload: {} })).toBe("landing landed");
    expect(
      noticeExcerpt({ type: "permission_requested", reason: "command matches", payload: { summary: "npm publish" } }),
    ).toBe("npm publish");
    expect(noticePath("question", "L1")).toBe("/loops/L1?answer=1#answer");
    expect(noticePath("done", "L1")).toBe("/loops/L1");
  });
});

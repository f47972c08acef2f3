import { describe, expect, it } from "vitest";
import { ALERTABLE_EVENT_TYPES, alertKindOf } from "./alert-kinds";

describe("alert kinds", () => {
  it.each([
    [{ type: "attention_needed", payload: { question: "Should I?" } }, "attention"],
    [{ type: "approval_requested" }, "approval"],
    [{ type: "intervention", payload: { level: "nudge" } }, null],
    [{ type: "intervention", payload: { level: "escalate" } }, "attention"],
    [{ type: "status_changed", payload: { to: "needs_attention" } }, null],
  ])("%j -> %s", (event, kind) => {
    expect(alertKindOf(event)).toBe(kind);
    if (kind) expect(ALERTABLE_EVENT_TYPES.has(event.type)).toBe(true);
  });
});

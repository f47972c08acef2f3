import { describe, expect, it } from "vitest";
import { decideControl, type ControlKind } from "./control-rules";

const none = { interrupt: false };
const pendingInterrupt = { interrupt: true };

describe("decideControl", () => {
  it.each<[string, ControlKind, { interrupt: boolean }, string]>([
    ["completed", "resume", none, "conflict"],
    ["failed", "nudge", none, "conflict"],
    ["draft", "interrupt", none, "conflict"],
    ["draft", "terminate", none, "finalize"],
    ["running", "interrupt", none, "store"],
    ["running", "interrupt", pendingInterrupt, "noop"],
    ["paused", "interrupt", none, "noop"],
    ["waiting", "interrupt", none, "store+wake"],
    ["running", "kill", none, "store"],
    ["awaiting_approval", "kill", none, "store+wake"],
    ["paused", "kill", none, "noop"],
    ["paused", "resume", none, "store+wake"],
    ["running", "resume", none, "noop"],
    ["running", "resume", pendingInterrupt, "store"],
    ["queued", "resume", none, "noop"],
    ["awaiting_approval", "approve", none, "store+wake"],
    ["awaiting_approval", "request_changes", none, "store+wake"],
    ["running", "approve", none, "conflict"],
    ["paused", "reject", none, "conflict"],
    ["running", "terminate", none, "store"],
    ["paused", "terminate", none, "store+wake"],
    ["paused", "nudge", none, "store"],
    ["running", "force_handoff", none, "store"],
    ["waiting", "update_limits", none, "store"],
  ])("%s + %s (%j) → %s", (status, kind, pending, expected) => {
    const verdict = decideControl(status, kind, pending);
    const label = verdict.kind === "store" ? (verdict.wake ? "store+wake" : "store") : verdict.kind;
    expect(label).toBe(expected);
  });
});

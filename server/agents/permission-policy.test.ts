// Which tool calls the loop's permission policy sends to an operator, and what the operator is shown.
import { describe, expect, it } from "vitest";
import { commandAgentSchema } from "./command.schema";
import { approvalReason, describeCall } from "./permission-policy";
import { permissionPolicySchema } from "./permission-policy.schema";

const policy = permissionPolicySchema.parse({
  tools: ["WebFetch"],
  commandPatterns: ["^git push", "rm -rf"],
  pathsOutsideWorkspace: true,
});
const ws = "/work/loop";

describe("permission policy", () => {
  it("asks for listed tools, matching commands and paths outside the workspace; allows the rest", () => {
    expect(approvalReason(policy, { toolName: "WebFetch", input: {} }, ws)).toMatch(/WebFetch/);
    expect(approvalReason(policy, { toolName: "Bash", input: { command: "git push origin main" } }, ws)).toMatch(
      /\^git push/,
    );
    expect(approvalReason(policy, { toolName: "Bash", input: { command: "npm test" } }, ws)).toBeNull();
    expect(approvalReason(policy, { toolName: "Write", input: { file_path: "/etc/hosts" } }, ws)).toMatch(/outside/);
    expect(approvalReason(policy, { toolName: "Edit", input: { file_path: "../sibling/x" } }, ws)).toMatch(/outside/);
    expect(approvalReason(policy, { toolName: "Edit", input: { file_path: "/work/loop/src/a.ts" } }, ws)).toBeNull();
    expect(approvalReason(policy, { toolName: "Edit", input: { file_path: "/work/loopy/a.ts" } }, ws)).toMatch(
      /outside/,
    );
  });

  it("shows the exact command, or the edit as a diff", () => {
    expect(describeCall({ toolName: "Bash", input: { command: "rm -rf build" } })).toBe("rm -rf build");
    expect(
      describeCall({ toolName: "Edit", input: { file_path: "a.ts", old_string: "x = 1", new_string: "x = 2" } }),
    ).toBe("a.ts\n--- old\nx = 1\n+++ new\nx = 2");
  });

  it("refuses an invalid pattern and a non-Claude agent with a policy; defaults deny after 300 s", () => {
    expect(permissionPolicySchema.safeParse({ commandPatterns: ["("] }).success).toBe(false);
    expect(commandAgentSchema.safeParse({ kind: "command", preset: "codex", permissions: {} }).success).toBe(false);
    expect(commandAgentSchema.safeParse({ kind: "command", preset: "claude-code", permissions: {} }).success).toBe(
      true,
    );
    expect(permissionPolicySchema.parse({})).toMatchObject({ defaultAction: "deny", deadlineSeconds: 300 });
  });
});

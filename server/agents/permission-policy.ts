/**
 * A loop's permission policy for Claude Code's `--permission-prompt-tool`: which
 * tool calls wait for an operator's approve/deny (by tool name, by a Bash command
 * pattern, by a file path outside the workspace), how risky the loop's owner says
 * they are, how long they wait and what happens when nobody answers. Calls the
 * policy does not match are allowed at once: the policy is the operator's list of
 * what to watch, and Claude Code only asks at all for calls its own permission
 * mode would have asked a person about (reads inside the workspace never ask).
 */
import { isAbsolute, relative, resolve } from "node:path";
import type { PermissionPolicy } from "./permission-policy.schema";

/** A call as Claude Code hands it to the permission tool. */
export interface PermissionCall {
  toolName: string;
  input: Record<string, unknown>;
}

const str = (v: unknown) => (typeof v === "string" ? v : undefined);

/** What the operator is shown: the exact command, the diff (old → new), or the input as JSON. */
export function describeCall(call: PermissionCall): string {
  const { input } = call;
  const command = str(input.command);
  if (command !== undefined) return command;
  const path = str(input.file_path) ?? str(input.notebook_path) ?? str(input.path);
  if (path !== undefined && str(input.old_string) !== undefined)
    return `${path}\n--- old\n${str(input.old_string)}\n+++ new\n${str(input.new_string) ?? ""}`;
  if (path !== undefined && str(input.content) !== undefined) return `${path}\n+++ new file\n${str(input.content)}`;
  return JSON.stringify(input, null, 2);
}

const outside = (path: string, workspace: string) => {
  const rel = relative(resolve(workspace), resolve(workspace, path));
  return rel.startsWith("..") || isAbsolute(rel);
};

/** Why the policy wants a person to decide this call, or null when it is allowed at once. */
export function approvalReason(policy: PermissionPolicy, call: PermissionCall, workspace: string): string | null {
  if (policy.tools.includes(call.toolName)) return `tool ${call.toolName} is on the loop's list`;
  const command = str(call.input.command);
  if (command !== undefined) {
    const hit = policy.commandPatterns.find((p) => new RegExp(p).test(command));
    if (hit !== undefined) return `command matches /${hit}/`;
  }
  if (policy.pathsOutsideWorkspace) {
    const path = str(call.input.file_path) ?? str(call.input.notebook_path) ?? str(call.input.path);
    if (path !== undefined && outside(path, workspace)) return `path ${path} is outside the workspace`;
  }
  return null;
}

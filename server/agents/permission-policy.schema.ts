/**
 * A loop's permission policy for Claude Code's `--permission-prompt-tool` (stored with
 * the agent's definition, validated with it): which tool calls wait for an operator's
 * approve/deny, their risk, their deadline and the default when nobody answers. The
 * matching is in permission-policy.ts.
 */
import { z } from "zod";

export const permissionRisks = ["low", "medium", "high"] as const;

const validRegex = (p: string) => {
  try {
    new RegExp(p);
    return true;
  } catch {
    return false;
  }
};

export const permissionPolicySchema = z
  .object({
    tools: z.array(z.string().min(1).max(200)).max(50).default([]).describe("Tool names that always ask (e.g. Write)"),
    commandPatterns: z
      .array(z.string().min(1).max(500).refine(validRegex, "must be a valid regular expression"))
      .max(50)
      .default([])
      .describe("Regular expressions: a Bash command matching one asks (e.g. ^git push, rm -rf)"),
    pathsOutsideWorkspace: z
      .boolean()
      .default(false)
      .describe("A file tool (Write, Edit, Read...) on a path outside the loop's workspace asks"),
    risk: z.enum(permissionRisks).default("medium").describe("How risky the watched calls are, shown with each prompt"),
    deadlineSeconds: z.number().int().min(5).max(86_400).default(300).describe("How long a prompt waits for an answer"),
    defaultAction: z.enum(["allow", "deny"]).default("deny").describe("What applies when the deadline passes"),
  })
  .describe("Permission prompts answered from the dashboard (Claude Code only)");

export type PermissionPolicy = z.output<typeof permissionPolicySchema>;

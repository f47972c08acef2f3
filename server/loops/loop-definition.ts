// What an operator submits to create a loop: the goal, the engine's limits,
// and the agent with its scorers, verifier and reflector. The API validates
// with this schema and the New-loop form is generated from it.
import { isAbsolute } from "node:path";
import { z } from "zod";
import { loopConfigSchema } from "../engine";
import {
  agentConfigSchema,
  reflectorConfigSchema,
  scorerConfigSchema,
  verifierConfigSchema,
} from "../agents/agent.schema";
import { workspaceSetupSchema } from "../agents/workspace-setup.schema";

/** The usual test locations and test-runner configs. */
export const DEFAULT_PROTECTED_PATHS = [
  "**/*.test.*",
  "**/*_test.*",
  "**/*.spec.*",
  "test/**",
  "tests/**",
  "**/__tests__/**",
  "spec/**",
  "vitest.config.*",
  "jest.config.*",
  "pytest.ini",
  "**/conftest.py",
];

export const evidenceSchema = z.object({
  protectedPaths: z
    .array(z.string().trim().min(1).max(500))
    .max(100)
    .default(DEFAULT_PROTECTED_PATHS)
    .describe("Globs of protected files; a modified or deleted one is tampering (new files are allowed)"),
  deriveFromChecks: z
    .boolean()
    .default(true)
    .describe(
      "Also protect what the command checks run: their test files, the runner's configuration and the check's own script",
    ),
  unprotected: z
    .array(z.string().trim().min(1).max(500))
    .max(100)
    .default([])
    .describe("Globs taken off the protected list (derived or default ones the agent is meant to change)"),
  onTamper: z
    .enum(["restore", "fail"])
    .default("restore")
    .describe(
      "restore = put the baseline version back before the checks run; fail = count the iteration as failed evidence",
    ),
});

export const loopDefinitionSchema = z.object({
  name: z.string().trim().max(200).default("").describe("Name (optional)"),
  goal: z.string().trim().min(1, "a loop needs a goal").max(20_000).describe("Goal"),
  workspace: z
    .string()
    .trim()
    .refine((p) => p === "" || isAbsolute(p), "must be an absolute path")
    .default("")
    .describe("Directory the agent works in (empty: a fresh folder for this loop under the data directory)"),
  isolation: z
    .enum(["worktree", "in-place"])
    .default("worktree")
    .describe(
      "In a git repository: worktree = the loop's own worktree on branch ralph/<id>, made from HEAD (uncommitted changes in your checkout are not copied); in-place = your own checkout",
    ),
  setup: workspaceSetupSchema
    .prefault({})
    .describe(
      "Workspace setup: a command run once in the sandbox in the new worktree before iteration 1 (npm ci, uv sync); gitignored files listed in the repository's .worktreeinclude are copied in first",
    ),
  evidence: evidenceSchema
    .prefault({})
    .describe("Protected evidence: files the agent may read but must not change (tests, test-runner configs)"),
  loop: loopConfigSchema.prefault({}).describe("Limits, budget, handoff, health and approval gates"),
  agent: agentConfigSchema.describe("Agent"),
  fallbackAgent: agentConfigSchema
    .optional()
    .describe("Fallback agent: runs while the agent's usage limit holds (loop.limits.onUsageLimit = fallback)"),
  scorers: z.array(scorerConfigSchema).default([]).describe("Scorers and validators"),
  verifier: verifierConfigSchema.default({ kind: "none" }).describe("Verifier"),
  reflector: reflectorConfigSchema.default({ kind: "rule-based" }).describe("Reflector"),
});

export type LoopDefinition = z.output<typeof loopDefinitionSchema>;
export type LoopDefinitionInput = z.input<typeof loopDefinitionSchema>;

/** What is stored as the loop's config: everything but the goal and name. */
export function storedDefinition(definition: LoopDefinition) {
  const { goal: _goal, name: _name, ...rest } = definition;
  return rest;
}

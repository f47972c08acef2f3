// What an operator submits to create a loop: the goal, the engine's limits,
// and the agent with its scorers, verifier and reflector. The API validates
// with this schema and the New-loop form is generated from it.
import { isAbsolute } from "node:path";
import { z } from "zod";
import { loopConfigSchema } from "../engine";
import { agentConfigSchema, reflectorConfigSchema, scorerConfigSchema, verifierConfigSchema } from "../agents/agent.schema";

export const loopDefinitionSchema = z.object({
  name: z.string().trim().max(200).default("").describe("Name (optional)"),
  goal: z.string().trim().min(1, "a loop needs a goal").max(20_000).describe("Goal"),
  workspace: z
    .string()
    .trim()
    .refine((p) => p === "" || isAbsolute(p), "must be an absolute path")
    .default("")
    .describe("Directory the agent works in (empty: a fresh folder for this loop under the data directory)"),
  loop: loopConfigSchema.prefault({}).describe("Limits, budget, handoff, health and approval gates"),
  agent: agentConfigSchema.describe("Agent"),
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

// What a race is made of (docs/races.md): one goal and one base definition (workspace, checks,
// verifier, limits), and two or more contenders that differ by agent (kind, preset, model) and
// optionally by a prompt added to the goal. Each contender becomes a loop of its own.
import { z } from "zod";
import { agentConfigSchema } from "../agents/agent.schema";
import { loopDefinitionSchema, type LoopDefinition } from "./loop-definition";

export const racePolicies = ["first_verified", "operator"] as const;

export const raceContenderSchema = z.object({
  label: z.string().trim().min(1, "name each contender").max(100),
  agent: agentConfigSchema,
  prompt: z.string().trim().max(4_000).default(""),
});

export const raceDefinitionSchema = z.object({
  name: z.string().trim().max(200).default(""),
  goal: z.string().trim().min(1, "a race needs a goal").max(20_000),
  /** first_verified: the first contender to pass the full evidence wins, is landed, the others stop. */
  policy: z.enum(racePolicies).default("first_verified"),
  /** The branch the winner lands onto (empty: the merge queue's default, the checkout's branch). */
  targetBranch: z.string().trim().max(200).default(""),
  base: loopDefinitionSchema.omit({ goal: true, name: true, agent: true, fallbackAgent: true }),
  contenders: z.array(raceContenderSchema).min(2, "a race needs two contenders or more").max(8),
});

export type RaceDefinition = z.output<typeof raceDefinitionSchema>;

/** Each contender's loop definition: the base, its agent, the goal (plus its prompt), named after the race. */
export function contenderDefinitions(race: RaceDefinition): LoopDefinition[] {
  return race.contenders.map((c) => ({
    ...race.base,
    name: race.name ? `${race.name}: ${c.label}` : c.label,
    goal: c.prompt ? `${race.goal}\n\n${c.prompt}` : race.goal,
    agent: c.agent,
  }));
}

import type { Reflection, ReflectionContext, ReflectorPort } from "../engine";
import type { AgentDeps } from "./deps";
import { generateJson } from "./llm-json";
import { reflectionSchema, type LlmReflectorConfig } from "./reflector.schema";

// Deeper reflection is allowed to say more.
const OUTPUT_TOKENS: Record<ReflectionContext["level"], number> = { low: 400, medium: 900, high: 1800 };

const SYSTEM =
  "You review one iteration of an autonomous agent loop and say why it fell short and what the next fresh agent should do differently. " +
  "Be concrete and brief; suggestions must be actionable instructions for the next attempt. Reply with only a JSON object: " +
  '{"summary": string, "keyFindings": string[], "rootCauses": string[], "insights": string[], "suggestions": string[]}.';

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}\n[…truncated]` : text);

function prompt(ctx: ReflectionContext, instructions?: string): string {
  const scores = Object.entries(ctx.scores)
    .map(([name, score]) => `- ${name}: ${score.toFixed(2)}`)
    .join("\n");
  const earlier = ctx.history
    .slice(-3)
    .map((r) => `- ${r.summary}${r.suggestions.length ? ` (suggested: ${r.suggestions.slice(0, 2).join("; ")})` : ""}`)
    .join("\n");
  return [
    `Goal:\n${ctx.goal}`,
    `Iteration ${ctx.iteration}; reflection depth: ${ctx.level}.`,
    ctx.error ? `The iteration failed with: ${ctx.error}` : "",
    scores ? `Scores (0..1), mean ${ctx.meanScore === null ? "n/a" : ctx.meanScore.toFixed(2)}:\n${scores}` : "",
    earlier ? `Earlier reflections:\n${earlier}` : "",
    instructions ?? "",
    `The agent's output:\n${clip(ctx.output, 4000) || "(empty)"}`,
  ]
    .filter(Boolean)
    .join("\n\n");
}

export function createLlmReflector(config: LlmReflectorConfig, deps: AgentDeps): ReflectorPort {
  return {
    async reflect(ctx): Promise<Reflection> {
      const reply = await generateJson(
        config,
        deps,
        {
          what: "The reflector",
          system: SYSTEM,
          prompt: prompt(ctx, config.instructions),
          shape:
            '{"summary": string, "keyFindings": string[], "rootCauses": string[], "insights": string[], "suggestions": string[]}',
          maxOutputTokens: OUTPUT_TOKENS[ctx.level],
          signal: ctx.signal,
        },
        reflectionSchema,
      );
      return reply.value;
    },
  };
}

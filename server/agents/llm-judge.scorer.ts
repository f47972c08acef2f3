import { z } from "zod";
import type { ScorerPort } from "../engine";
import type { AgentDeps } from "./deps";
import { generateJson } from "./llm-json";
import type { LlmJudgeScorerConfig } from "./scorer.schema";

export const judgeVerdictSchema = z.object({
  score: z.number().min(0).max(1),
  rationale: z.string().min(1),
});

const SYSTEM =
  "You are a strict, fair grader. Score the answer against the rubric from 0 (fails it) to 1 (fully meets it). " +
  'Reply with only a JSON object: {"score": <number 0..1>, "rationale": "<one or two sentences>"}.';

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}\n[…truncated]` : text);

export function createLlmJudgeScorer(config: LlmJudgeScorerConfig, deps: AgentDeps): ScorerPort {
  return {
    name: config.name,
    async score(ctx) {
      const prompt = [
        `Goal:\n${ctx.goal}`,
        `Rubric:\n${config.rubric}`,
        `Answer (iteration ${ctx.iteration}):\n${clip(ctx.output, config.maxOutputChars)}`,
      ].join("\n\n");
      const reply = await generateJson(
        config,
        deps,
        {
          what: `Judge "${config.name}"`,
          system: SYSTEM,
          prompt,
          shape: '{"score": number between 0 and 1, "rationale": string}',
          maxOutputTokens: 400,
          temperature: 0,
          signal: ctx.signal,
        },
        judgeVerdictSchema,
      );
      return { score: reply.value.score, reason: reply.value.rationale };
    },
  };
}

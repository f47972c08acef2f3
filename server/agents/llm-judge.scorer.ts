import { z } from "zod";
import type { ScorerPort } from "../engine";
import type { AgentDeps } from "./deps";
import { generateJson } from "./llm-json";
import type { LlmJudgeScorerConfig } from "./scorer.schema";

export const judgeVerdictSchema = z.object({
  score: z.number().min(0).max(1),
  rationale: z.string().min(1),
  asksOperator: z.string().max(2000).nullable().optional(),
});

const SYSTEM =
  "You are a strict, fair grader. Score the answer against the rubric from 0 (fails it) to 1 (fully meets it). " +
  "Also judge whether the end of the answer asks the human operator a question, waits for their decision, or says the agent is blocked until they act; " +
  'if so, "asksOperator" quotes that question or blocker, otherwise it is null. ' +
  'Reply with only a JSON object: {"score": <number 0..1>, "rationale": "<one or two sentences>", "asksOperator": "<question>"|null}.';

/** Characters of the answer's end shown when the answer is clipped: where an agent asks or says it is stuck. */
const END_CHARS = 1500;

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}\n[…truncated]` : text);

export function createLlmJudgeScorer(config: LlmJudgeScorerConfig, deps: AgentDeps): ScorerPort {
  return {
    name: config.name,
    async score(ctx) {
      const prompt = [
        `Goal:\n${ctx.goal}`,
        `Rubric:\n${config.rubric}`,
        `Answer (iteration ${ctx.iteration}):\n${clip(ctx.output, config.maxOutputChars)}`,
        ...(ctx.output.length > config.maxOutputChars ? [`End of the answer:\n${ctx.output.slice(-END_CHARS)}`] : []),
      ].join("\n\n");
      const reply = await generateJson(
        config,
        deps,
        {
          what: `Judge "${config.name}"`,
          system: SYSTEM,
          prompt,
          shape: '{"score": number between 0 and 1, "rationale": string, "asksOperator": string | null}',
          maxOutputTokens: 400,
          temperature: 0,
          signal: ctx.signal,
        },
        judgeVerdictSchema,
      );
      const question = reply.value.asksOperator?.trim();
      return { score: reply.value.score, reason: reply.value.rationale, ...(question ? { question } : {}) };
    },
  };
}

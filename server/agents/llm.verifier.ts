/**
 * Outer verification: an independent model, with no tools, reads the task
 * and a bounded answer and says whether the task is complete. Earlier
 * verdicts are included so it does not flip-flop without reason.
 */
import { z } from "zod";
import type { VerificationAttempt, VerifierPort } from "../engine";
import type { AgentDeps } from "./deps";
import { generateJson } from "./llm-json";
import type { LlmVerifierConfig } from "./verifier.schema";

export const MAX_VERIFIER_OUTPUT_TOKENS = 512;

export const verdictSchema = z.object({
  complete: z.boolean(),
  reason: z.string().min(1).max(2000),
  // Headless agents stop to ask; the rules catch "should I", this catches the rest.
  asksOperator: z.string().max(2000).nullable().optional(),
});

const SYSTEM =
  "You verify whether an autonomous agent has fully completed its task. You have no tools: judge only from the task and the answer shown. " +
  "Be strict: if the answer does not show the task is done, it is not complete, and the reason says what is missing. " +
  "Also judge whether the end of the answer asks the human operator a question, waits for their decision, or says the agent is blocked until they act; " +
  'if so, "asksOperator" quotes that question or blocker from the answer, otherwise it is null. ' +
  'Reply with only a JSON object: {"complete": true|false, "reason": "<short reason>", "asksOperator": "<question>"|null}.';

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}\n[…truncated]` : text);

function history(previous: readonly VerificationAttempt[], keep: number): string {
  if (keep === 0 || previous.length === 0) return "";
  const lines = previous
    .slice(-keep)
    .map(
      (a) =>
        `- iteration ${a.iteration}: ${a.complete ? "complete" : "not complete"}. ${a.reason}\n  answer began: ${clip(a.answer, 300).replace(/\n/g, " ")}`,
    );
  return `Previous verification attempts (oldest first):\n${lines.join("\n")}`;
}

export function createLlmVerifier(config: LlmVerifierConfig, deps: AgentDeps): VerifierPort {
  return {
    async verify(request) {
      const prompt = [
        `Task:\n${request.task}`,
        config.instructions ? `What counts as complete:\n${config.instructions}` : "",
        history(request.previousResults, config.previousAttempts),
        `Answer from iteration ${request.iteration}:\n${clip(request.answer, config.answerMaxChars)}`,
        // A long answer is clipped at its head; its end is where the agent asks or says it is stuck.
        request.finalMessage && !clip(request.answer, config.answerMaxChars).trimEnd().endsWith(request.finalMessage)
          ? `End of the answer:\n${request.finalMessage}`
          : "",
      ]
        .filter(Boolean)
        .join("\n\n");
      const reply = await generateJson(
        config,
        deps,
        {
          what: "The verifier",
          system: SYSTEM,
          prompt,
          shape: '{"complete": boolean, "reason": string, "asksOperator": string | null}',
          maxOutputTokens: MAX_VERIFIER_OUTPUT_TOKENS,
          temperature: 0,
          signal: request.signal,
        },
        verdictSchema,
      );
      const question = reply.value.asksOperator?.trim();
      return {
        complete: reply.value.complete,
        reason: reply.value.reason + (reply.repaired ? " (verdict JSON repaired once)" : ""),
        ...(question ? { question } : {}),
      };
    },
  };
}

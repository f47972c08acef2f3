import { z } from "zod";
import { processFields } from "./command.schema";
import { modelFields } from "./llm.schema";

export const noVerifierSchema = z.object({ kind: z.literal("none") }).describe("No outer verification");

export const llmVerifierSchema = z
  .object({
    kind: z.literal("llm"),
    ...modelFields,
    instructions: z.string().optional().describe("Extra instructions for the verifier (what counts as done)"),
    answerMaxChars: z
      .number()
      .int()
      .min(200)
      .max(4000)
      .default(4000)
      .describe("Answer characters shown to the verifier"),
    previousAttempts: z.number().int().min(0).max(20).default(5).describe("Earlier verdicts included for context"),
  })
  .refine((c) => c.provider !== "openai-compatible" || !!c.baseURL, {
    message: "an OpenAI-compatible server needs its base URL",
    path: ["baseURL"],
  })
  .describe("LLM verifier: an independent model judges completion (no tools)");
export type LlmVerifierConfig = z.output<typeof llmVerifierSchema>;

export const commandVerifierSchema = z
  .object({
    kind: z.literal("command"),
    argv: z
      .array(z.string().min(1))
      .min(1)
      .describe(
        "Command run in the workspace; gets {task, answer, iteration, previousResults} as JSON on stdin; exit 0 = complete",
      ),
    ...processFields,
    timeoutSeconds: z.number().min(0).default(600).describe("Kill the verifier after (seconds, 0 = never)"),
  })
  .describe("Command verifier: exit code 0 means complete");
export type CommandVerifierConfig = z.output<typeof commandVerifierSchema>;

export const verifierConfigSchema = z.discriminatedUnion("kind", [
  noVerifierSchema,
  llmVerifierSchema,
  commandVerifierSchema,
]);

export type VerifierConfig = z.output<typeof verifierConfigSchema>;

import { z } from "zod";
import { modelFields } from "./llm.schema";

export const ruleBasedReflectorSchema = z
  .object({ kind: z.literal("rule-based") })
  .describe("Rule-based reflection from failing scorers and errors (no model)");

export const llmReflectorSchema = z
  .object({
    kind: z.literal("llm"),
    ...modelFields,
    instructions: z.string().optional().describe("Extra guidance for the reflection"),
  })
  .refine((c) => c.provider !== "openai-compatible" || !!c.baseURL, {
    message: "an OpenAI-compatible server needs its base URL",
    path: ["baseURL"],
  })
  .describe("LLM reflection: a model explains what went wrong and what to try next");

export const reflectorConfigSchema = z.discriminatedUnion("kind", [ruleBasedReflectorSchema, llmReflectorSchema]);

export type ReflectorConfig = z.output<typeof reflectorConfigSchema>;
export type LlmReflectorConfig = z.output<typeof llmReflectorSchema>;

const items = z.array(z.string().min(1)).max(10);

/** The engine's Reflection shape, validated. */
export const reflectionSchema = z.object({
  summary: z.string().min(1),
  keyFindings: items,
  rootCauses: items,
  insights: items,
  suggestions: items,
});

import { z } from "zod";
import { secretEnvField, secretIdField } from "./secret-resolver";

export const llmProviders = ["openai", "anthropic", "openai-compatible"] as const;
export type LlmProvider = (typeof llmProviders)[number];

export const modelPriceSchema = z
  .object({
    inputPerMTok: z.number().min(0).describe("Input, USD per million tokens"),
    outputPerMTok: z.number().min(0).describe("Output, USD per million tokens"),
    cacheReadPerMTok: z.number().min(0).optional().describe("Cache reads, USD per million tokens"),
  })
  .describe("Price override (e.g. zeros for a local model)");

/** Which model to call and how to authenticate; shared by the agent, judge, verifier and reflector. */
export const modelFields = {
  provider: z
    .enum(llmProviders)
    .default("openai")
    .describe("Provider (OpenAI-compatible covers Ollama, vLLM and LM Studio)"),
  model: z.string().min(1).describe("Model id, e.g. gpt-4.1-mini, claude-sonnet-4-5 or llama3.1"),
  baseURL: z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe("API base URL; required for OpenAI-compatible servers, e.g. http://127.0.0.1:11434/v1"),
  apiKeyEnv: secretEnvField(
    "API key from this server environment variable (default OPENAI_API_KEY / ANTHROPIC_API_KEY)",
  ).optional(),
  apiKeySecret: secretIdField("API key from this stored secret (name or id)").optional(),
  price: modelPriceSchema.optional(),
  timeoutSeconds: z.number().min(0).default(300).describe("Give up on a model call after (seconds, 0 = never)"),
};

const needsBaseURL = (m: { provider: LlmProvider; baseURL?: string }) =>
  m.provider !== "openai-compatible" || !!m.baseURL;
const baseURLIssue = { message: "an OpenAI-compatible server needs its base URL", path: ["baseURL"] };

export const modelRefSchema = z.object(modelFields).refine(needsBaseURL, baseURLIssue).describe("Model");
export type ModelRef = z.output<typeof modelRefSchema>;

export const llmAgentSchema = z
  .object({
    kind: z.literal("llm"),
    ...modelFields,
    system: z
      .string()
      .default(
        "You are an autonomous agent working towards the goal you are given. When, and only when, the goal is fully achieved, end your answer with <promise>COMPLETE</promise>.",
      )
      .describe("System prompt"),
    temperature: z.number().min(0).max(2).optional().describe("Temperature (empty = provider default)"),
    maxOutputTokens: z.number().int().min(1).default(4096).describe("Maximum output tokens"),
  })
  .refine(needsBaseURL, baseURLIssue)
  .describe("Direct model call (AI SDK)");

export type LlmAgentConfig = z.output<typeof llmAgentSchema>;

/**
 * One model call through the AI SDK, with our rules applied: the SDK's own
 * retries are off (maxRetries: 0) so the engine's retry strategy governs,
 * usage becomes TokenUsage, cost comes from the pricing table, and failures
 * become AgentErrors.
 */
import { generateText, type LanguageModelUsage, type ModelMessage } from "ai";
import type { TokenUsage } from "../engine";
import type { AgentDeps } from "./deps";
import { callSignals, llmError } from "./llm-errors";
import { resolveModel } from "./llm.provider";
import type { ModelRef } from "./llm.schema";
import { defaultPriceLookup, priceUsage } from "./pricing";
import { scrubSecrets } from "./redact";

export interface ModelCall {
  what: string;
  system?: string;
  prompt?: string;
  messages?: ModelMessage[];
  maxOutputTokens: number;
  temperature?: number;
  signal: AbortSignal;
}

export interface ModelReply {
  text: string;
  usage: TokenUsage;
  costUsd: number;
  warnings: string[];
  finishReason: string;
  responseModel: string | null;
}

export function toTokenUsage(usage: LanguageModelUsage): { usage: TokenUsage; cacheWrite: number } {
  const cache = usage.inputTokenDetails?.cacheReadTokens ?? usage.cachedInputTokens ?? 0;
  const input = Math.max(0, (usage.inputTokens ?? 0) - cache);
  return {
    usage: { input, output: usage.outputTokens ?? 0, cache },
    cacheWrite: usage.inputTokenDetails?.cacheWriteTokens ?? 0,
  };
}

export const addUsage = (a: TokenUsage, b: TokenUsage): TokenUsage => ({
  input: a.input + b.input,
  output: a.output + b.output,
  cache: a.cache + b.cache,
});

export async function callModel(ref: ModelRef, deps: AgentDeps, call: ModelCall): Promise<ModelReply> {
  const { model, secretValues } = await resolveModel(ref, deps);
  const { signal, timeoutSignal } = callSignals(call.signal, ref.timeoutSeconds);
  const base = {
    model,
    system: call.system,
    maxOutputTokens: call.maxOutputTokens,
    temperature: call.temperature,
    maxRetries: 0,
    abortSignal: signal,
  };
  let result;
  try {
    result = await (call.messages
      ? generateText({ ...base, messages: call.messages })
      : generateText({ ...base, prompt: call.prompt ?? "" }));
  } catch (error) {
    throw llmError(error, {
      what: call.what,
      signal: call.signal,
      timeoutSignal,
      timeoutSeconds: ref.timeoutSeconds,
      secretValues,
    });
  }
  const { usage, cacheWrite } = toTokenUsage(result.usage);
  const priced = priceUsage(deps.pricing ?? defaultPriceLookup, ref.model, usage, { override: ref.price, cacheWrite });
  return {
    text: scrubSecrets(result.text, secretValues),
    usage,
    costUsd: priced.costUsd,
    warnings: priced.warning ? [priced.warning] : [],
    finishReason: result.finishReason,
    responseModel: result.response?.modelId ?? null,
  };
}

/**
 * Builds AI SDK language models from config. Keys are always passed in
 * explicitly (resolved through the SecretResolver), and base URLs always
 * given, so the SDK never falls back to reading the process environment.
 */
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModel } from "ai";
import type { AgentDeps } from "./deps";
import type { ModelRef } from "./llm.schema";
import { refFrom, resolveRequired } from "./secret-resolver";

export interface ResolvedModel {
  model: LanguageModel;
  /** For scrubbing: the key must never show up in errors or meta. */
  secretValues: string[];
}

const DEFAULT_BASE_URL = { openai: "https://api.openai.com/v1", anthropic: "https://api.anthropic.com/v1" } as const;
const DEFAULT_KEY_ENV = { openai: "OPENAI_API_KEY", anthropic: "ANTHROPIC_API_KEY" } as const;

export async function resolveModel(ref: ModelRef, deps: Pick<AgentDeps, "secrets" | "fetch">): Promise<ResolvedModel> {
  const configured = refFrom(ref.apiKeyEnv, ref.apiKeySecret);
  const fetch = deps.fetch;
  switch (ref.provider) {
    case "openai": {
      const apiKey = await resolveRequired(deps.secrets, configured ?? { env: DEFAULT_KEY_ENV.openai }, "OpenAI API key");
      // .chat(): the Chat Completions API, which OpenAI-style proxies also speak
      // (the provider's default is the newer Responses API).
      const model = createOpenAI({ apiKey, baseURL: ref.baseURL ?? DEFAULT_BASE_URL.openai, fetch }).chat(ref.model);
      return { model, secretValues: [apiKey] };
    }
    case "anthropic": {
      const apiKey = await resolveRequired(deps.secrets, configured ?? { env: DEFAULT_KEY_ENV.anthropic }, "Anthropic API key");
      const model = createAnthropic({ apiKey, baseURL: ref.baseURL ?? DEFAULT_BASE_URL.anthropic, fetch })(ref.model);
      return { model, secretValues: [apiKey] };
    }
    case "openai-compatible": {
      // Local servers usually need no key; one is sent only when configured.
      const apiKey = configured ? await resolveRequired(deps.secrets, configured, "API key") : undefined;
      const model = createOpenAICompatible({ name: "openai-compatible", baseURL: ref.baseURL!, apiKey, fetch }).chatModel(ref.model);
      return { model, secretValues: apiKey ? [apiKey] : [] };
    }
  }
}

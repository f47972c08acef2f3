/**
 * Builds AI SDK language models from config. Keys are always passed in
 * explicitly (resolved through the SecretResolver), and base URLs always
 * given, so the SDK never falls back to reading the process environment.
 * Every call goes through the SSRF guard: a key is never sent to loopback,
 * private or link-local addresses unless an admin listed the host in
 * RALPH_AGENT_ALLOW_HOSTS.
 */
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModel } from "ai";
import type { AgentDeps } from "./deps";
import { guardedFetch } from "./guarded-fetch";
import type { ModelRef } from "./llm.schema";
import { refFrom, resolveRequired } from "./secret-resolver";
import { checkOutboundUrl } from "./ssrf-guard";

export interface ResolvedModel {
  model: LanguageModel;
  /** For scrubbing: the key must never show up in errors or meta. */
  secretValues: string[];
}

const DEFAULT_BASE_URL = { openai: "https://api.openai.com/v1", anthropic: "https://api.anthropic.com/v1" } as const;
const DEFAULT_KEY_ENV = { openai: "OPENAI_API_KEY", anthropic: "ANTHROPIC_API_KEY" } as const;

type ModelDeps = Pick<AgentDeps, "secrets" | "fetch" | "allowHosts" | "redactor">;

export async function resolveModel(ref: ModelRef, deps: ModelDeps): Promise<ResolvedModel> {
  const configured = refFrom(ref.apiKeyEnv, ref.apiKeySecret);
  const allowHosts = deps.allowHosts ?? [];
  const fetch = guardedFetch(allowHosts, deps.fetch);
  const baseURL = ref.provider === "openai-compatible" ? ref.baseURL! : (ref.baseURL ?? DEFAULT_BASE_URL[ref.provider]);
  // Refused before any key is resolved: a bad target never gets to see one.
  const use = { kind: "llm" as const, hosts: [checkOutboundUrl(baseURL, allowHosts).hostname] };
  const key = async (fallback: string | null, purpose: string) => {
    const source = configured ?? (fallback ? { env: fallback } : null);
    if (!source) return undefined;
    const value = await resolveRequired(deps.secrets, source, purpose, use);
    deps.redactor?.add([value]);
    return value;
  };
  switch (ref.provider) {
    case "openai": {
      const apiKey = (await key(DEFAULT_KEY_ENV.openai, "OpenAI API key"))!;
      // .chat(): the Chat Completions API, which OpenAI-style proxies also speak
      // (the provider's default is the newer Responses API).
      const model = createOpenAI({ apiKey, baseURL, fetch }).chat(ref.model);
      return { model, secretValues: [apiKey] };
    }
    case "anthropic": {
      const apiKey = (await key(DEFAULT_KEY_ENV.anthropic, "Anthropic API key"))!;
      const model = createAnthropic({ apiKey, baseURL, fetch })(ref.model);
      return { model, secretValues: [apiKey] };
    }
    case "openai-compatible": {
      // Local servers usually need no key; one is sent only when configured.
      const apiKey = await key(null, "API key");
      const model = createOpenAICompatible({ name: "openai-compatible", baseURL, apiKey, fetch }).chatModel(ref.model);
      return { model, secretValues: apiKey ? [apiKey] : [] };
    }
  }
}

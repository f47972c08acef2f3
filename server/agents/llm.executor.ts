import type { AgentClaim, AgentPort, AgentRunResult } from "../engine";
import { abortedError } from "./agent-error";
import { claimFromValue, detectClaim } from "./claim";
import type { AgentDeps } from "./deps";
import { callModel } from "./llm-call";
import type { LlmAgentConfig } from "./llm.schema";

/** A model that answers in JSON may claim through a field instead of the tag. */
function jsonClaim(text: string): AgentClaim | undefined {
  const trimmed = text.trim().replace(/^```(?:json)?\s*|\s*```$/g, "");
  if (!trimmed.startsWith("{")) return undefined;
  try {
    const value = JSON.parse(trimmed) as Record<string, unknown>;
    return claimFromValue(value.claim ?? (typeof value.done === "boolean" ? { done: value.done } : undefined));
  } catch {
    return undefined;
  }
}

/** A direct model call per iteration; the composed input is the prompt. */
export function createLlmAgent(config: LlmAgentConfig, deps: AgentDeps): AgentPort {
  return {
    async run(request): Promise<AgentRunResult> {
      if (request.signal.aborted) throw abortedError("The model call");
      request.onProgress({ kind: "progress", message: `calling ${config.provider}:${config.model}` });
      const reply = await callModel(config, deps, {
        what: `${config.provider} model ${config.model}`,
        system: config.system,
        prompt: request.input,
        maxOutputTokens: config.maxOutputTokens,
        temperature: config.temperature,
        signal: request.signal,
      });
      return {
        output: reply.text,
        // The signal in the text, or a JSON reply's own field ({"claim": {"done": true}} / {"done": true}).
        claim: detectClaim(reply.text, jsonClaim(reply.text), request.completionSignal),
        usage: reply.usage,
        costUsd: reply.costUsd,
        toolCalls: [],
        truncated: reply.finishReason === "length",
        meta: {
          kind: "llm",
          provider: config.provider,
          model: config.model,
          responseModel: reply.responseModel,
          finishReason: reply.finishReason,
          warnings: reply.warnings,
        },
      };
    },
  };
}
